// bench:threads' piscina task: SHA-256 of one message (bench/threads-job.js).
import { createHash } from 'node:crypto';

export default function sha256(data) {
  return createHash('sha256').update(data).digest('hex');
}
