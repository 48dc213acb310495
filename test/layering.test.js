// The import graph of src/ against the layer order written in src/README.md (the
// ```layers block): a module imports from its own folder or from a lower layer;
// folders side by side in one layer do not import each other; every folder and
// top-level file of src/ has its place in the order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

/** The layers, top first: each a list of units ('commands/', 'run-plan.js'). */
export function readLayers(readme) {
  const block = /^```layers\n([\s\S]*?)^```/m.exec(readme);
  if (!block) throw new Error('src/README.md has no ```layers block');
  return block[1].split('\n').map((line) => line.replace(/#.*/, '').trim()).filter(Boolean).map((line) => line.split(/\s+/));
}

/** Every .js file under dir. */
function jsFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return jsFiles(full);
    return name.endsWith('.js') ? [full] : [];
  });
}

/** 'runner/run-engine.js' → 'runner/'; 'run-plan.js' → 'run-plan.js'. */
function unitOf(file) {
  const parts = path.relative(SRC, file).split(path.sep);
  return parts.length > 1 ? `${parts[0]}/` : parts[0];
}

/** Relative specifiers a module imports: static, re-exports and dynamic import() with a literal. */
export function importsOf(text) {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  return [...code.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => m[1]);
}

/** Edges between units: { from, to, file, spec }. */
function unitEdges() {
  const edges = [];
  for (const file of jsFiles(SRC)) {
    for (const spec of importsOf(readFileSync(file, 'utf8'))) {
      const target = path.resolve(path.dirname(file), spec);
      if (!target.startsWith(SRC)) continue;
      const from = unitOf(file);
      const to = unitOf(target);
      if (from !== to) edges.push({ from, to, file: path.relative(SRC, file), spec });
    }
  }
  return edges;
}

/** Back edges and same-layer edges against the layer order. */
export function layerViolations(layers, edges) {
  const level = new Map(layers.flatMap((units, i) => units.map((u) => [u, i])));
  const problems = [];
  for (const e of edges) {
    const a = level.get(e.from);
    const b = level.get(e.to);
    if (a === undefined || b === undefined) continue; // reported by the "every unit has a place" test
    if (b < a) problems.push(`${e.file} imports ${e.spec}: ${e.to} is in a higher layer than ${e.from}`);
    else if (a === b) problems.push(`${e.file} imports ${e.spec}: ${e.from} and ${e.to} are side by side in one layer`);
  }
  return problems;
}

/** A cycle between units, as a list of units, or null. */
export function findCycle(edges) {
  const next = new Map();
  for (const e of edges) next.set(e.from, new Set([...(next.get(e.from) ?? []), e.to]));
  const state = new Map();
  const stack = [];
  const visit = (u) => {
    state.set(u, 'open');
    stack.push(u);
    for (const v of next.get(u) ?? []) {
      if (state.get(v) === 'open') return [...stack.slice(stack.indexOf(v)), v];
      if (!state.has(v)) {
        const found = visit(v);
        if (found) return found;
      }
    }
    stack.pop();
    state.set(u, 'done');
    return null;
  };
  for (const u of next.keys()) {
    if (!state.has(u)) {
      const found = visit(u);
      if (found) return found;
    }
  }
  return null;
}

const layers = readLayers(readFileSync(path.join(SRC, 'README.md'), 'utf8'));
const edges = unitEdges();

test('every folder and top-level file of src/ has one place in the layer order of src/README.md', () => {
  const listed = layers.flat();
  assert.equal(new Set(listed).size, listed.length, 'a unit is listed twice');
  const units = new Set(jsFiles(SRC).map(unitOf));
  assert.deepEqual([...units].filter((u) => !listed.includes(u)).sort(), [], 'not in the layer order');
  assert.deepEqual(listed.filter((u) => !units.has(u)), [], 'listed but not in src/');
});

test('no import from a lower layer to a higher one, none across one layer', () => {
  assert.deepEqual(layerViolations(layers, edges), []);
});

test('no cycle between folders', () => {
  assert.equal(findCycle(edges), null);
});

test('the checker itself catches a back edge, a side-by-side edge and a cycle', () => {
  const order = [['commands/'], ['tune/', 'compare/'], ['runner/'], ['errors.js']];
  const edge = (from, to) => ({ from, to, file: `${from}x.js`, spec: `../${to}` });
  assert.deepEqual(layerViolations(order, [edge('commands/', 'runner/'), edge('runner/', 'errors.js')]), []);
  assert.match(layerViolations(order, [edge('runner/', 'tune/')])[0], /higher layer/);
  assert.match(layerViolations(order, [edge('compare/', 'tune/')])[0], /side by side/);
  assert.deepEqual(findCycle([edge('a/', 'b/'), edge('b/', 'c/'), edge('c/', 'a/')]), ['a/', 'b/', 'c/', 'a/']);
  assert.deepEqual(importsOf("import x from './a.js';\nexport { y } from '../b.js';\nconst z = () => import('../c.js');\n// import q from './no.js'"), ['./a.js', '../b.js', '../c.js']);
});

test('no two files in src/ share a basename (index.js, a folder\'s entry, aside)', () => {
  const byName = new Map();
  for (const file of jsFiles(SRC)) {
    const name = path.basename(file);
    if (name === 'index.js') continue;
    byName.set(name, [...(byName.get(name) ?? []), path.relative(SRC, file)]);
  }
  assert.deepEqual([...byName.values()].filter((files) => files.length > 1), [], 'rename one so the name says its role, e.g. report/<name>-text.js, report/html/<name>-html.js, ui/components/<name>-panel.js');
});
