/**
 * Whether this Node publishes `tracing:child_process.spawn:start` around spawn,
 * seen directly (subscribe, spawn `true` once), independently of the probe's own
 * detection that tests check. Node 26 does, and so do later 24.x releases (24.21.0);
 * Node 20 and 22.23 do not.
 */
import { spawn } from 'node:child_process';
import diagnosticsChannel from 'node:diagnostics_channel';
import { once } from 'node:events';

export async function spawnChannelPublished() {
  let seen = false;
  const onStart = () => {
    seen = true;
  };
  diagnosticsChannel.subscribe('tracing:child_process.spawn:start', onStart);
  try {
    await once(spawn('true', { stdio: 'ignore' }), 'exit');
  } finally {
    diagnosticsChannel.unsubscribe('tracing:child_process.spawn:start', onStart);
  }
  return seen;
}
