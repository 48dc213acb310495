/**
 * The lines a server wrote to stderr during the measured phase, counted by
 * distinct text (cleaned and cut: they are the server's, untrusted), most frequent
 * first, with bounded memory. Stack frames (`    at …`) are left out: the line
 * above them says what happened, and a thousand identical frames would crowd it out.
 */
import { createTextCounter } from '../base/untrusted-text.js';
import { STDERR_LINES_KEPT } from '../base/thresholds.js';

/**
 * @returns {{ add: (line: string) => void, start: () => void, stop: () => void,
 *   snapshot: () => { lines: Array<{ text: string, count: number }>, other: number, total: number } }}
 */
export function createStderrLines() {
  const counter = createTextCounter({ maxTexts: STDERR_LINES_KEPT });
  let counting = false;
  return {
    add(line) {
      if (!counting || /^\s+at /.test(line) || line.trim() === '') return;
      counter.add(line);
    },
    start() {
      counting = true;
    },
    stop() {
      counting = false;
    },
    snapshot() {
      const { texts, other, total } = counter.snapshot();
      return { lines: texts, other, total };
    },
  };
}
