/**
 * Reading a child's output with bounded memory. readline keeps a line until its newline
 * comes, so a child that writes without newlines grew spawnbench until V8 refused
 * ("Invalid string length", 600–900 MB seen). Here a line is cut at a size limit and the
 * rest of it dropped, and the stderr tail is bounded in lines and in bytes.
 */
import { StringDecoder } from 'node:string_decoder';
import { MAX_CHILD_LINE_BYTES, STDERR_TAIL_LINES, STDERR_TAIL_BYTES, STDERR_TAIL_FRAMES } from '../base/thresholds.js';
import { plainText } from '../base/untrusted-text.js';

/**
 * Calls `onLine` for each line of a byte stream (without its `\n` or `\r\n`). A line longer
 * than `maxBytes` is given once, cut, with `cut: true`; what follows up to the next newline is dropped.
 * @param {import('node:stream').Readable} stream
 * @param {(line: string, info: { cut: boolean }) => void} onLine
 * @param {{ maxBytes?: number }} [options]
 */
export function readBoundedLines(stream, onLine, { maxBytes = MAX_CHILD_LINE_BYTES } = {}) {
  let parts = [];
  let size = 0;
  let dropping = false;
  const emit = (buffer, cut) => {
    const decoder = new StringDecoder('utf8');
    let text = decoder.write(buffer) + decoder.end();
    if (!cut && text.endsWith('\r')) text = text.slice(0, -1);
    onLine(text, { cut });
  };
  stream.on('data', (chunk) => {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(10, start);
      const end = newline === -1 ? chunk.length : newline;
      const piece = chunk.subarray(start, end);
      if (!dropping) {
        if (size + piece.length > maxBytes) {
          parts.push(piece.subarray(0, maxBytes - size));
          emit(Buffer.concat(parts), true);
          parts = [];
          size = 0;
          dropping = true;
        } else {
          parts.push(Buffer.from(piece)); // a copy: the chunk's memory is not held for a partial line
          size += piece.length;
        }
      }
      if (newline === -1) break;
      if (!dropping) emit(Buffer.concat(parts), false);
      parts = [];
      size = 0;
      dropping = false;
      start = newline + 1;
    }
  });
  stream.on('end', () => {
    if (size > 0 && !dropping) emit(Buffer.concat(parts), false);
  });
}

/**
 * The last lines of a child's stderr, bounded in lines and bytes. Runs of stack frames are
 * shortened (`    … N more frames`), so a crash's `Error: …` line stays in view.
 * @param {{ maxLines?: number, maxBytes?: number, maxFrames?: number }} [options]
 * @returns {{ add: (line: string) => void, text: () => string }}
 */
export function createStderrTail({ maxLines = STDERR_TAIL_LINES, maxBytes = STDERR_TAIL_BYTES, maxFrames = STDERR_TAIL_FRAMES } = {}) {
  const lines = [];
  let bytes = 0;
  let frames = 0; // frame lines in the current run
  let hidden = 0; // frames of the current run not kept
  const push = (line) => {
    lines.push(line);
    bytes += Buffer.byteLength(line) + 1;
    while (lines.length > maxLines || (bytes > maxBytes && lines.length > 1)) bytes -= Buffer.byteLength(lines.shift()) + 1;
    if (bytes > maxBytes) {
      // One line longer than the whole budget: keep its end.
      lines[0] = `…${lines[0].slice(-(maxBytes - 4))}`; // "…" is 3 bytes, plus the newline
      bytes = Buffer.byteLength(lines[0]) + 1;
    }
  };
  const flushHidden = () => {
    if (hidden > 0) push(`    … ${hidden} more frame${hidden === 1 ? '' : 's'}`);
    hidden = 0;
    frames = 0;
  };
  return {
    add(raw) {
      // The tail is shown as it is (FAILED: … its stderr ends:, a boot failure's one line): a server's escape
      // sequences cleared the screen and set the terminal's title from it, its bidi controls reordered it.
      const line = plainText(raw);
      if (/^\s+at /.test(line)) {
        frames++;
        if (frames > maxFrames) {
          hidden++;
          return;
        }
        push(line);
        return;
      }
      flushHidden();
      push(line);
    },
    text() {
      const shown = hidden > 0 ? [...lines, `    … ${hidden} more frame${hidden === 1 ? '' : 's'}`] : lines;
      return shown.join('\n');
    },
  };
}
