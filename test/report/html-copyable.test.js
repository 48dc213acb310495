// The HTML report's commands copy and run as they are: the confirm command of a run's
// recommendation used to keep the terminal's "\" line continuations (joined into one
// paragraph: "spawnbench tune \ --sizes …", which a shell reads as an escaped space), and
// the "Summary as text" block overflowed the page sideways. A saved result without
// `confirmWith.expectedMs` printed "about NaN s".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { adviceInput } from '../../src/analysis/advice-input.js';
import { adviseRun } from '../../src/analysis/run-advice.js';
import { commandLine } from '../../src/analysis/confirm-command.js';
import { formatSummary } from '../../src/report/summary.js';
import { renderHtml } from '../../src/report/html/index.js';
import { esc } from '../../src/report/html/svg.js';

const RUN = JSON.parse(readFileSync(new URL('../gates/fixtures/run.json', import.meta.url), 'utf8'));
const ARGV = ['tune', '--sizes', '1,2,3,4,5,6,7,8', '--size-env', 'WEB_CONCURRENCY', '-c', '30', '--', 'node',
  '/srv/applications/a-rather-long-directory-name/of-the-users-server/app.js', '--greeting', 'hello there'];

function withConfirm(confirmWith) {
  return { ...RUN, recommendation: { ...adviseRun(adviceInput(RUN)), confirmWith } };
}

test('the confirm command in the HTML report is one line that runs as is; the terminal still wraps it', () => {
  const result = withConfirm({ command: commandLine(ARGV), argv: ARGV, steps: 8, expectedMs: 56_000 });
  assert.match(formatSummary(result), / \\\n/, 'the 80-column summary continues the command with " \\"');
  const html = renderHtml(result);
  assert.doesNotMatch(html, /\\\n|\\ /, 'no backslash continuation anywhere in the page');
  const line = esc(commandLine(ARGV));
  assert.ok(line.includes('&#39;hello there&#39;'), 'quoted for the shell');
  assert.ok(html.split(line).length - 1 >= 2, 'the whole command, on one line, in the recommendation and in the summary as text');
});

test('the "Summary as text" block wraps on the page instead of overflowing it', () => {
  const html = renderHtml(withConfirm({ command: commandLine(ARGV), argv: ARGV, steps: 8, expectedMs: 56_000 }));
  const preRule = /(?:^|\n)pre \{([^}]*)\}/.exec(html)?.[1] ?? '';
  assert.match(preRule, /white-space: pre-wrap/);
  assert.match(preRule, /overflow-wrap: anywhere/);
  assert.doesNotMatch(preRule, /overflow-x: auto/);
});

test('a confirm command without its expected time says the steps, never "NaN"', () => {
  const text = formatSummary(withConfirm({ command: commandLine(ARGV), argv: ARGV, steps: 8 }));
  assert.doesNotMatch(text, /NaN/);
  assert.match(text, /Confirm with a sweep \(8 steps\):/);
  const bare = formatSummary(withConfirm({ command: commandLine(ARGV) }));
  assert.doesNotMatch(bare, /NaN|undefined/);
  assert.match(bare, /Confirm with a sweep:\n {4}spawnbench tune /);
});
