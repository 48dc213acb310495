/**
 * Text that comes from the server under test (the first line of an error body, a
 * line of its stderr): untrusted, unbounded, possibly hostile. Here it is cut to a
 * size, stripped of escape sequences and control characters, and counted by
 * distinct text with bounded memory. The generator, the runner and every view
 * read these; views clean again, and a result file (which can be edited by hand) is
 * cleaned whole when it is read (plainDocument).
 */
import { ERROR_TEXT_BYTES, ERROR_TEXTS_KEPT } from './thresholds.js';

// ESC [ … final byte (CSI), ESC ] … BEL or ESC \ (OSC), and any other ESC + one character.
const ESCAPES = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u009b[0-?]*[ -/]*[@-~]|\u001b[\s\S]?/g;
// C0 controls, DEL and C1 controls; a tab becomes a space first.
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;
// The same but a line feed, for texts kept in lines (a result file's fields).
const CONTROLS_BUT_LF = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g;
// Bidirectional controls (embeddings, overrides, isolates, marks): they reorder what a
// terminal or a browser shows after them, so "U+202E" + "lmth.exe" reads "exe.html".
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * A string safe to print on a terminal and short enough for a summary line:
 * escape sequences and control characters removed, whitespace at the ends trimmed,
 * at most `maxBytes` UTF-8 bytes (cut at a character, never inside one).
 * @param {unknown} text
 * @param {number} [maxBytes]
 * @returns {string}
 */
export function cleanText(text, maxBytes = ERROR_TEXT_BYTES) {
  const plain = String(text ?? '').replace(ESCAPES, '').replace(/\t/g, ' ').replace(CONTROLS, '').replace(BIDI, '').trim();
  return cutBytes(plain, maxBytes);
}

/**
 * A text safe to print, of any length: escape sequences, control characters (a line feed
 * kept, a tab made a space) and bidirectional controls removed; nothing trimmed or cut.
 * For names read from /proc and the fields of a result file.
 * @param {string} text
 * @returns {string}
 */
export function plainText(text) {
  return text.replace(ESCAPES, '').replace(/\t/g, ' ').replace(CONTROLS_BUT_LF, '').replace(BIDI, '');
}

/** Whether `text` holds anything plainText() removes (most texts do not: they are kept as they are). */
const UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/**
 * A document read from outside (a result file) with every string and key made plainText():
 * a new value where something was cleaned, the same one elsewhere. Recursive: the caller
 * bounds the depth (src/report/result-shape.js checkResultDepth).
 * @template T
 * @param {T} value parsed JSON
 * @returns {T}
 */
export function plainDocument(value) {
  if (typeof value === 'string') return /** @type {T} */ (UNSAFE.test(value) ? plainText(value) : value);
  if (Array.isArray(value)) return /** @type {T} */ (value.map(plainDocument));
  if (value && typeof value === 'object') {
    return /** @type {T} */ (Object.fromEntries(Object.entries(value).map(([key, inner]) => [plainDocument(key), plainDocument(inner)])));
  }
  return value;
}

/** At most `maxBytes` UTF-8 bytes of `text`, cut between characters. */
export function cutBytes(text, maxBytes) {
  if (Buffer.byteLength(text) <= maxBytes) return text;
  const cut = Buffer.from(text).subarray(0, maxBytes).toString('utf8');
  // A character cut in half decodes as U+FFFD at the end: drop it.
  return cut.replace(/\uFFFD+$/, '');
}

/**
 * The first line of `bytes` (up to the first LF or CR), decoded and cleaned.
 * @param {Buffer} bytes
 * @param {number} [length] bytes of `bytes` in use
 * @returns {string}
 */
export function firstLine(bytes, length = bytes.length) {
  let end = 0;
  while (end < length && bytes[end] !== 10 && bytes[end] !== 13) end++;
  return cleanText(bytes.toString('utf8', 0, end));
}

/**
 * Counts texts by distinct value with bounded memory: the first `maxTexts`
 * distinct texts are kept with their counts, later new ones are only counted
 * (`other`). Each text is cleaned and cut before it is compared.
 * @param {{ maxTexts?: number, maxBytes?: number }} [options]
 */
export function createTextCounter({ maxTexts = ERROR_TEXTS_KEPT, maxBytes = ERROR_TEXT_BYTES } = {}) {
  const texts = new Map();
  let other = 0;
  let total = 0;
  return {
    /** @param {string} text already cleaned when `clean` is false */
    add(text, count = 1, clean = true) {
      const key = clean ? cleanText(text, maxBytes) : text;
      total += count;
      if (texts.has(key)) texts.set(key, texts.get(key) + count);
      else if (texts.size < maxTexts) texts.set(key, count);
      else other += count;
    },
    /** Adds a snapshot() of another counter. */
    merge(snapshot) {
      for (const { text, count } of snapshot.texts) this.add(text, count, false);
      other += snapshot.other;
      total += snapshot.other;
    },
    get size() {
      return texts.size;
    },
    /** @returns {{ texts: Array<{ text: string, count: number }>, other: number, total: number }} most frequent first */
    snapshot() {
      const list = [...texts].map(([text, count]) => ({ text, count })).sort((a, b) => b.count - a.count);
      return { texts: list, other, total };
    },
    reset() {
      texts.clear();
      other = 0;
      total = 0;
    },
  };
}
