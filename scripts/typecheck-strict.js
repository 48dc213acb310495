/**
 * The strict part of `npm run typecheck`: the whole program (tsconfig.json's files) checked
 * again with `noImplicitAny` and `strictNullChecks`, its errors counted in the folders that
 * have opted in (STRICT_FOLDERS) and nowhere else. TypeScript takes these options per
 * program, not per folder, and a folder's files import others: a second program over
 * everything, filtered by folder, is what holds a folder strict while its neighbours are
 * not yet. A folder opts in by its line below; none opts out (test/type-check.test.js
 * holds src/analysis/ and src/report/ here).
 *
 *   node scripts/typecheck-strict.js            errors of the strict folders; exit 1 if any (by itself:
 *                                               `npm run typecheck` runs it within scripts/typecheck.js)
 *   node scripts/typecheck-strict.js --count    errors per top folder if every folder were strict
 */
import ts from 'typescript';
import { fileURLToPath } from 'node:url';
import { relative } from 'node:path';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The folders held to noImplicitAny and strictNullChecks, relative to the repository. */
export const STRICT_FOLDERS = [
  'src/analysis/',
  'src/report/',
];

/** The options added to tsconfig.json's for the strict program. */
export const STRICT_OPTIONS = { noImplicitAny: true, strictNullChecks: true };

/** tsconfig.json as TypeScript reads it: its files and options. */
export function readProject() {
  const configPath = ts.findConfigFile(ROOT, ts.sys.fileExists, 'tsconfig.json');
  if (!configPath) throw new Error('tsconfig.json not found');
  const { config } = ts.readConfigFile(configPath, ts.sys.readFile);
  return ts.parseJsonConfigFileContent(config, ts.sys, ROOT);
}

/** How a diagnostic is printed: as `tsc` prints it without a terminal, `file(line,col): error TSn: text`. */
export const FORMAT_HOST = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => ROOT, getNewLine: () => '\n' };

/**
 * The strict program's errors, each with the file it is in (relative to the repository).
 * `program`: the plain program (scripts/typecheck.js), whose parsed and bound files the strict one takes
 * over through `host` (neither option changes how a file parses or binds), rather than reading them again.
 * @param {{ folders?: string[]|null, host?: import('typescript').CompilerHost, program?: import('typescript').Program }} [options]
 * @returns {Array<{ file: string|null, text: string }>}
 */
export function strictDiagnostics({ folders = null, host = undefined, program: plain = undefined } = {}) {
  const parsed = readProject();
  const program = ts.createProgram({ rootNames: parsed.fileNames, options: { ...parsed.options, ...STRICT_OPTIONS }, host, oldProgram: plain });
  // Only the strict folders' files are checked when only their errors count: the checker still reads
  // the types they import, but not every body of the program: 5.0 s instead of 8.6 (7.9 CPU-s instead of 13.7) on the 2-core machine.
  const diagnostics = folders === null
    ? ts.getPreEmitDiagnostics(program)
    : [
      ...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics(),
      ...program.getSourceFiles().filter((f) => isStrict(relative(ROOT, f.fileName), folders))
        .flatMap((f) => [...program.getSyntacticDiagnostics(f), ...program.getSemanticDiagnostics(f)]),
    ];
  return diagnostics.map((d) => ({
    file: d.file ? relative(ROOT, d.file.fileName) : null,
    text: ts.formatDiagnostic(d, FORMAT_HOST).trimEnd(),
  }));
}

/** Whether a file is in a strict folder. */
export const isStrict = (file, folders = STRICT_FOLDERS) => file !== null && folders.some((folder) => file.startsWith(folder));

function main() {
  if (process.argv.includes('--count')) {
    const all = strictDiagnostics();
    const counts = {};
    for (const { file } of all) {
      const top = file ? file.split('/').slice(0, file.startsWith('src/') ? 2 : 1).join('/') : '(global)';
      counts[top] = (counts[top] ?? 0) + 1;
    }
    for (const [folder, count] of Object.entries(counts).sort((a, b) => b[1] - a[1])) console.log(`${String(count).padStart(6)}  ${folder}`);
    return;
  }
  process.exitCode = printStrictErrors() > 0 ? 1 : 0;
}

/**
 * Prints the strict folders' errors and their count; returns the count.
 * @param {{ host?: import('typescript').CompilerHost, program?: import('typescript').Program }} [plain]
 */
export function printStrictErrors(plain = {}) {
  const errors = strictDiagnostics({ folders: STRICT_FOLDERS, ...plain }).filter((d) => d.file === null || isStrict(d.file));
  for (const { text } of errors) console.log(text);
  console.log(`strict (noImplicitAny, strictNullChecks) in ${STRICT_FOLDERS.join(', ')}: ${errors.length} error${errors.length === 1 ? '' : 's'}`);
  return errors.length;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
