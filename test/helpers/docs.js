/**
 * The user documentation as tests read it: README.md and every page of docs/ (the
 * reference the README links to).
 */
import { readdirSync, readFileSync } from 'node:fs';

const ROOT = new URL('../../', import.meta.url);

/** README.md's text. */
export const readme = () => readFileSync(new URL('README.md', ROOT), 'utf8');

/** One page of docs/ by file name ('own-server.md'). */
export const docPage = (name) => readFileSync(new URL(`docs/${name}`, ROOT), 'utf8');

/** README.md and every docs/*.md, one text. */
export function allDocs() {
  const pages = readdirSync(new URL('docs/', ROOT)).filter((name) => name.endsWith('.md')).sort();
  return [readme(), ...pages.map(docPage)].join('\n');
}
