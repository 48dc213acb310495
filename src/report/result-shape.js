/**
 * The shape of a result file beyond its header, checked against the published JSON
 * Schema (schema/result.schema.json, with ajv). A file with spawnbench's header and
 * another body (edited, truncated by hand, from a future version) is refused in one
 * line naming the field, instead of a TypeError from deep in a formatter.
 */
import { openSync, readSync, closeSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { RunError } from '../base/errors.js';
import { MAX_RESULT_DEPTH, MAX_RESULT_FILE_BYTES } from '../base/thresholds.js';

/** The schema of every result document (`--json`, `--out`), as published for CI users. */
export const RESULT_SCHEMA_URL = new URL('../../schema/result.schema.json', import.meta.url);

/** @typedef {Record<string, any>} JsonSchema the published schema's JSON: free-form, read by its keywords */

/** @type {{ schema: JsonSchema, validate: import('ajv').ValidateFunction }|null} */
let compiled = null;

/**
 * The schema, compiled once, on first use (`report` and `--against` only: no other command pays for ajv).
 * @returns {{ schema: JsonSchema, validate: import('ajv').ValidateFunction }}
 */
function schemaValidator() {
  if (!compiled) {
    const schema = JSON.parse(readFileSync(RESULT_SCHEMA_URL, 'utf8'));
    const ajvModule = createRequire(import.meta.url)('ajv');
    const Ajv = ajvModule.default ?? ajvModule;
    // verbose: each error carries the schema around it, for the expected type of a missing field.
    const ajv = new Ajv({ allErrors: true, verbose: true, strict: false });
    compiled = { schema, validate: ajv.compile(schema) };
  }
  return compiled;
}

/** @type {Record<string, string>} */
const WHAT = { object: 'an object', array: 'a list', number: 'a number', integer: 'a whole number', string: 'text', boolean: 'true or false', null: 'null' };
/** @param {string|string[]} type */
const describeType = (type) => /** @type {string[]} */ ([]).concat(type).map((t) => WHAT[t] ?? t).join(' or ');

/**
 * '#/definitions/load' → that definition; anything else as it is.
 * @param {JsonSchema} schema
 * @param {JsonSchema|undefined} part
 * @returns {JsonSchema|undefined}
 */
function resolve(schema, part) {
  const ref = part?.$ref;
  return ref?.startsWith('#/definitions/') ? schema.definitions[ref.slice('#/definitions/'.length)] : part;
}

/**
 * An ajv error as "its "load.requests" is not a number".
 * @param {JsonSchema} schema
 * @param {import('ajv').ErrorObject} error
 */
function describeError(schema, error) {
  const path = error.instancePath.split('/').slice(1);
  if (error.keyword === 'required') {
    const field = [...path, error.params.missingProperty].join('.');
    // A field a kind requires may be declared at the top, for every kind.
    const declared = error.parentSchema?.properties?.[error.params.missingProperty] ?? (path.length === 0 ? schema.properties[error.params.missingProperty] : undefined);
    const type = resolve(schema, declared)?.type;
    return `its "${field}" is ${type ? `not ${describeType(type)}` : 'missing'}`;
  }
  const field = path.join('.') || 'document';
  if (error.keyword === 'type') return `its "${field}" is not ${describeType(error.params.type)}`;
  return `its "${field}" ${error.message}`;
}

/**
 * What is wrong with a result document, by the schema: one line per problem, none when it conforms.
 * @param {unknown} data
 * @returns {string[]}
 */
export function resultSchemaErrors(data) {
  const { schema, validate } = schemaValidator();
  if (validate(data)) return [];
  // An `if`/`then` failure is reported twice: the field inside `then`, and the `if` that chose it.
  // A validation that failed has set its errors.
  return /** @type {import('ajv').ErrorObject[]} */ (validate.errors).filter((error) => error.keyword !== 'if').map((error) => describeError(schema, error));
}

/**
 * @param {string} file for the message
 * @param {{ kind?: unknown }} data a result with a valid header
 * @throws {RunError}
 */
export function checkResultShape(file, data) {
  const [problem] = resultSchemaErrors(data);
  if (problem) throw new RunError(`${file} has the header of a spawnbench ${data.kind} result but ${problem}; give a file written by --out, unedited`);
}

/**
 * Reads at most MAX_RESULT_FILE_BYTES of a file (a device or a pipe included).
 * @param {string} file
 * @returns {string}
 * @throws {NodeJS.ErrnoException} from open/read; RunError when the file is larger
 */
export function readBounded(file) {
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.allocUnsafe(MAX_RESULT_FILE_BYTES + 1);
    let length = 0;
    for (;;) {
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
      if (length > MAX_RESULT_FILE_BYTES) {
        throw new RunError(`${file} is larger than ${MAX_RESULT_FILE_BYTES / 1024 / 1024} MB, more than any result file; give a file written by --out`);
      }
    }
    // A byte-order mark (saved by an editor on Windows; PowerShell 5's > writes UTF-16) read as "not JSON".
    if (length >= 2 && buffer[0] === 0xff && buffer[1] === 0xfe) return buffer.toString('utf16le', 2, length);
    const start = length >= 3 && buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf ? 3 : 0;
    return buffer.toString('utf8', start, length);
  } finally {
    closeSync(fd);
  }
}

/**
 * How deep objects and lists nest in a JSON text, levels (counted on the text, without
 * recursion: the file may nest deeper than any recursive reader's stack).
 * @param {string} text valid JSON
 * @returns {number}
 */
export function nestingDepth(text) {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) deepest = Math.max(deepest, ++depth);
    else if (c === 0x7d || c === 0x5d) depth--;
  }
  return deepest;
}

/**
 * Refuses a result text that nests deeper than any result spawnbench writes.
 * @param {string} file for the message
 * @param {string} text valid JSON
 * @throws {RunError}
 */
export function checkResultDepth(file, text) {
  const depth = nestingDepth(text);
  if (depth > MAX_RESULT_DEPTH) {
    throw new RunError(`${file} nests ${depth} levels deep, deeper than any spawnbench result (at most ${MAX_RESULT_DEPTH}); give a file written by --out, unedited`);
  }
}
