// The result documents' types (src/base/result-types.js) and the JSON Schema users read
// (schema/result.schema.json) say the same (issue 39): read both, the types through the
// TypeScript checker, and compare field by field: every field the schema names is in
// the type, a field the schema requires is not optional in the type, and a field the
// schema allows to be null is `|null` in the type (and the other way round).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SCHEMA = JSON.parse(readFileSync(new URL('../schema/result.schema.json', import.meta.url), 'utf8'));

/** The result kinds and the schema's definitions, and their types in src/base/result-types.js. */
const KINDS = { run: 'RunResult', diagnose: 'DiagnoseResult', tune: 'TuneResult', compare: 'CompareResult' };
const DEFINITIONS = { latency: 'Latency', load: 'LoadResult', metricFigure: 'MetricFigure', assertion: 'Assertion', against: 'Against', runPlan: 'RunPlan' };

/**
 * The types of src/base/result-types.js by name, read with strictNullChecks so `|null` is kept (one program for all).
 * The project's lib (tsconfig.json: es2023), not the default that adds the DOM's: half the checker's time, the same types.
 */
let typesRead = null;
function readTypes() {
  typesRead ??= readTypesNamed([...Object.values(KINDS), ...Object.values(DEFINITIONS)]);
  return typesRead;
}

function readTypesNamed(names) {
  const probe = `${ROOT}test/.result-types-probe.ts`;
  const source = `${names.map((name) => `import type { ${name} } from '../src/base/result-types.js';`).join('\n')}\n${names.map((name) => `declare const ${name}_: ${name};`).join('\n')}\n`;
  const host = ts.createCompilerHost({});
  const readFile = host.readFile.bind(host);
  host.readFile = (file) => (file === probe ? source : readFile(file));
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (file) => file === probe || fileExists(file);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (file, version, ...rest) => (file === probe ? ts.createSourceFile(file, source, version) : getSourceFile(file, version, ...rest));
  const program = ts.createProgram([probe], {
    allowJs: true, checkJs: true, noEmit: true, strictNullChecks: true, module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, lib: ['lib.es2023.d.ts'], types: [],
  }, host);
  const checker = program.getTypeChecker();
  const file = program.getSourceFile(probe);
  const types = {};
  for (const statement of file.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    const declaration = statement.declarationList.declarations[0];
    const name = declaration.name.getText(file).replace(/_$/, '');
    const type = checker.getTypeAtLocation(declaration);
    const fields = {};
    for (const symbol of checker.getPropertiesOfType(type)) {
      const fieldType = checker.getTypeOfSymbolAtLocation(symbol, declaration);
      const parts = fieldType.isUnion() ? fieldType.types : [fieldType];
      fields[symbol.name] = {
        optional: (symbol.flags & ts.SymbolFlags.Optional) !== 0,
        nullable: parts.some((part) => (part.flags & ts.TypeFlags.Null) !== 0),
      };
    }
    types[name] = fields;
  }
  return types;
}

/** The schema's fields of an object schema (`$ref`s followed): name → { required, nullable }. */
function schemaFields(...objects) {
  const fields = {};
  for (const object of objects) {
    for (const [name, field] of Object.entries(object.properties ?? {})) {
      const target = field.$ref ? SCHEMA.definitions[field.$ref.split('/').pop()] : field;
      const type = [target.type].flat();
      fields[name] = { required: fields[name]?.required ?? false, nullable: type.includes('null') };
    }
    for (const name of object.required ?? []) fields[name] = { ...(fields[name] ?? { nullable: false }), required: true };
  }
  return fields;
}

/** Where the schema and a type disagree, one line each. */
function disagreements(typeName, fields, type) {
  const found = [];
  for (const [name, field] of Object.entries(fields)) {
    const typed = type[name];
    if (!typed) found.push(`${typeName}.${name}: in the schema, not in the type`);
    else {
      if (field.required && typed.optional) found.push(`${typeName}.${name}: required by the schema, optional in the type`);
      if (field.nullable !== typed.nullable) found.push(`${typeName}.${name}: ${field.nullable ? 'nullable' : 'not nullable'} in the schema, ${typed.nullable ? 'nullable' : 'not nullable'} in the type`);
    }
  }
  return found;
}


test('every result document type has every field the schema gives its kind, as required and as nullable', () => {
  const types = readTypes();
  const found = [];
  for (const [kind, typeName] of Object.entries(KINDS)) {
    const branch = SCHEMA.allOf.find((rule) => rule.if.properties.kind.const === kind).then;
    const { kind: _kind, ...top } = schemaFields(SCHEMA, branch);
    assert.ok(types[typeName], `${typeName} is a type of src/base/result-types.js`);
    found.push(...disagreements(typeName, top, types[typeName]));
  }
  assert.deepEqual(found, []);
});

test('the schema\'s parts (latency, load, metric, assertion, against, plan) have types that say the same', () => {
  const types = readTypes();
  const found = [];
  for (const [definition, typeName] of Object.entries(DEFINITIONS)) found.push(...disagreements(typeName, schemaFields(SCHEMA.definitions[definition]), types[typeName]));
  assert.deepEqual(found, []);
});

test('a type that drifts from the schema is found: the reader of both sees a missing field, an optional required one, a lost null', () => {
  const schema = schemaFields({ required: ['a', 'b'], properties: { a: { type: 'number' }, b: { type: ['number', 'null'] }, c: { type: 'string' } } });
  assert.deepEqual(disagreements('T', schema, { a: { optional: true, nullable: false }, b: { optional: false, nullable: false } }), [
    'T.a: required by the schema, optional in the type',
    'T.b: nullable in the schema, not nullable in the type',
    'T.c: in the schema, not in the type',
  ]);
});
