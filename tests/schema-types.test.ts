// Proves that the TypeScript types in src/types.ts and the JSON Schemas in schemas/ describe the
// same format: same fields, same optionality, same value shapes, recursively.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import ts from 'typescript';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { loadSchema, resolveRef, SCHEMA_NAMES, type JsonSchema, type SchemaName } from '../src/schema/schemas.js';

type Shape =
  | { kind: 'string' | 'number' | 'boolean' | 'null' | 'any' }
  | { kind: 'enum'; values: string[] }
  | { kind: 'const'; value: unknown }
  | { kind: 'array'; items: Shape }
  | { kind: 'tuple'; items: Shape[] }
  | { kind: 'map'; values: Shape }
  | { kind: 'object'; name?: string; schema?: JsonSchema; partial: boolean }
  | { kind: 'union'; options: Shape[] };

const source = ts.createSourceFile('types.ts', readFileSync(new URL('../src/types.ts', import.meta.url), 'utf8'), ts.ScriptTarget.Latest, true);
const interfaces = new Map<string, ts.InterfaceDeclaration>();
const aliases = new Map<string, ts.TypeNode>();
for (const statement of source.statements) {
  if (ts.isInterfaceDeclaration(statement)) interfaces.set(statement.name.text, statement);
  if (ts.isTypeAliasDeclaration(statement)) aliases.set(statement.name.text, statement.type);
}

function tsShape(node: ts.TypeNode, partial = false): Shape {
  if (node.kind === ts.SyntaxKind.StringKeyword) return { kind: 'string' };
  if (node.kind === ts.SyntaxKind.NumberKeyword) return { kind: 'number' };
  if (node.kind === ts.SyntaxKind.BooleanKeyword) return { kind: 'boolean' };
  if (ts.isLiteralTypeNode(node)) {
    if (node.literal.kind === ts.SyntaxKind.NullKeyword) return { kind: 'null' };
    if (node.literal.kind === ts.SyntaxKind.TrueKeyword) return { kind: 'const', value: true };
    if (ts.isStringLiteral(node.literal)) return { kind: 'enum', values: [node.literal.text] };
  }
  if (ts.isParenthesizedTypeNode(node)) return tsShape(node.type, partial);
  if (ts.isArrayTypeNode(node)) return { kind: 'array', items: tsShape(node.elementType) };
  if (ts.isTupleTypeNode(node)) return { kind: 'tuple', items: node.elements.map((e) => tsShape(e as ts.TypeNode)) };
  if (ts.isUnionTypeNode(node)) {
    const options = node.types.map((t) => tsShape(t));
    if (options.every((o) => o.kind === 'enum')) return { kind: 'enum', values: options.flatMap((o) => (o as { values: string[] }).values).sort() };
    return { kind: 'union', options };
  }
  if (ts.isTypeReferenceNode(node)) {
    const name = node.typeName.getText();
    const args = node.typeArguments ?? [];
    if (name === 'Array') return { kind: 'array', items: tsShape(args[0]!) };
    if (name === 'Record') return { kind: 'map', values: tsShape(args[1]!) };
    if (name === 'Partial') {
      const inner = tsShape(args[0]!, true);
      return inner.kind === 'object' ? { ...inner, partial: true } : inner;
    }
    if (name === 'JsonValue') return { kind: 'any' };
    if (interfaces.has(name)) return { kind: 'object', name, partial };
    const alias = aliases.get(name);
    if (alias !== undefined) return tsShape(alias, partial);
  }
  throw new Error(`unsupported type in types.ts: ${node.getText()}`);
}

function schemaShape(schema: JsonSchema, root: JsonSchema): Shape {
  const s = resolveRef(root, schema);
  if (s.const !== undefined) return { kind: 'const', value: s.const };
  if (s.enum !== undefined) return { kind: 'enum', values: (s.enum as string[]).map(String).sort() };
  if (s.anyOf !== undefined) return { kind: 'union', options: s.anyOf.map((o) => schemaShape(o, root)) };
  if (Array.isArray(s.type)) return { kind: 'union', options: s.type.map((t) => schemaShape({ ...s, type: t }, root)) };
  switch (s.type) {
    case 'string': return { kind: 'string' };
    case 'integer':
    case 'number': return { kind: 'number' };
    case 'boolean': return { kind: 'boolean' };
    case 'null': return { kind: 'null' };
    case 'array':
      if (Array.isArray(s.prefixItems)) return { kind: 'tuple', items: s.prefixItems.map((i) => schemaShape(i, root)) };
      return { kind: 'array', items: s.items === undefined ? { kind: 'any' } : schemaShape(s.items, root) };
    case 'object':
      if (s.properties !== undefined) return { kind: 'object', schema: s, partial: false };
      if (typeof s.additionalProperties === 'object') return { kind: 'map', values: schemaShape(s.additionalProperties, root) };
      return { kind: 'map', values: { kind: 'any' } };
  }
  throw new Error(`unsupported schema: ${JSON.stringify(s).slice(0, 120)}`);
}

function sameShape(a: Shape, b: Shape, root: JsonSchema, path: string, seen: Set<string>): void {
  // An object type in TS may stand for a map schema ({ type: object }) only when it is a free map; otherwise kinds match.
  assert.equal(a.kind, b.kind, `${path}: types.ts has ${a.kind}, the schema has ${b.kind}`);
  if (a.kind === 'enum' && b.kind === 'enum') assert.deepEqual(a.values, b.values, `${path}: enum values differ`);
  if (a.kind === 'const' && b.kind === 'const') assert.deepEqual(a.value, b.value, `${path}: const differs`);
  if (a.kind === 'array' && b.kind === 'array') sameShape(a.items, b.items, root, `${path}[]`, seen);
  if (a.kind === 'map' && b.kind === 'map') sameShape(a.values, b.values, root, `${path}{}`, seen);
  if (a.kind === 'tuple' && b.kind === 'tuple') {
    assert.equal(a.items.length, b.items.length, `${path}: tuple lengths differ`);
    a.items.forEach((item, i) => sameShape(item, b.items[i]!, root, `${path}[${i}]`, seen));
  }
  if (a.kind === 'union' && b.kind === 'union') {
    assert.equal(a.options.length, b.options.length, `${path}: unions differ in size`);
    for (const option of a.options) {
      const match = b.options.find((o) => o.kind === option.kind);
      assert.ok(match !== undefined, `${path}: the schema has no ${option.kind} alternative`);
      sameShape(option, match, root, path, seen);
    }
  }
  if (a.kind === 'object' && b.kind === 'object') compareInterface(a.name!, b.schema!, root, path, a.partial, seen);
}

function compareInterface(name: string, schema: JsonSchema, root: JsonSchema, path: string, partial: boolean, seen = new Set<string>()): void {
  const key = `${name}@${path}`;
  if (seen.has(key)) return;
  seen.add(key);
  const declaration = interfaces.get(name);
  assert.ok(declaration !== undefined, `no interface ${name} in types.ts`);
  const properties = schema.properties ?? {};
  // Members of the interface and of the interfaces it extends.
  const members: ts.PropertySignature[] = [];
  const collect = (decl: ts.InterfaceDeclaration): void => {
    members.push(...decl.members.filter(ts.isPropertySignature));
    for (const clause of decl.heritageClauses ?? []) for (const type of clause.types) collect(interfaces.get(type.expression.getText())!);
  };
  collect(declaration);
  const tsNames = members.map((m) => m.name.getText()).sort();
  assert.deepEqual(tsNames, Object.keys(properties).sort(), `${path || name}: the fields of ${name} and of its schema differ`);
  const required = new Set(schema.required ?? []);
  for (const member of members) {
    const field = member.name.getText();
    const optional = member.questionToken !== undefined;
    if (!partial) assert.equal(!optional, required.has(field), `${path}.${field}: ${optional ? 'optional' : 'required'} in types.ts but ${required.has(field) ? 'required' : 'optional'} in the schema`);
    sameShape(tsShape(member.type!), schemaShape(properties[field]!, root), root, `${path}.${field}`, seen);
  }
}

const def = (schema: JsonSchema, name: string): JsonSchema => (schema.$defs as Record<string, JsonSchema>)[name]!;

const CASES: Array<[string, SchemaName, (root: JsonSchema) => JsonSchema]> = [
  ['KnowledgeEntry', 'knowledge-entry', (r) => r],
  ['LoreConfigFile', 'config', (r) => r],
  ['RoleConstraints', 'role-constraints', (r) => r],
  ['GateProfile', 'gate-profile', (r) => r],
  ['ImplementationMode', 'implementation-mode', (r) => r],
  ['ProjectOverrides', 'project-overrides', (r) => r],
  ['GraphEntityRecord', 'graph-entity', (r) => r],
  ['GraphMemoryFile', 'graph-memory', (r) => r],
  ['GraphUpdate', 'graph-update', (r) => r],
  ['TurnState', 'turn-state', (r) => def(r, 'turn')],
  ['FeatureCompletion', 'turn-state', (r) => def(r, 'completion')],
  ['Tombstone', 'turn-state', (r) => def(r, 'tombstone')],
  ['DagNode', 'dag-line', (r) => def(r, 'node')],
  ['ArtifactRef', 'dag-line', (r) => def(r, 'artifact')],
  ['DagTombstone', 'dag-line', (r) => def(r, 'tombstone')],
  ['ApplicationEvent', 'application-event', (r) => r],
  ['AllowRecord', 'allow-record', (r) => r],
  ['TaskPlanInput', 'task-plan', (r) => r],
  ['LearningCapture', 'learning-capture', (r) => r],
  ['RejectionEvent', 'rejection-event', (r) => r],
  ['ExtendsLock', 'extends-lock', (r) => r],
];

describe('types.ts and schemas/', () => {
  for (const [name, schemaName, pick] of CASES) {
    it(`describe ${name} the same way (${schemaName}.schema.json)`, () => {
      const root = loadSchema(schemaName);
      compareInterface(name, pick(root), root, name, false);
    });
  }

  it('would notice a field missing from the schema', () => {
    const root = loadSchema('gate-profile');
    const { effective_from: _dropped, ...properties } = root.properties!;
    assert.throws(() => compareInterface('GateProfile', { ...root, properties }, root, 'GateProfile', false), /fields of GateProfile/);
  });

  it('would notice a field that is optional in one and required in the other', () => {
    const root = loadSchema('application-event');
    assert.throws(() => compareInterface('ApplicationEvent', { ...root, required: [...root.required!, 'helpful'] }, root, 'ApplicationEvent', false), /helpful: optional in types.ts but required/);
  });

  it('would notice an enum value that differs', () => {
    const root = loadSchema('knowledge-entry');
    const properties = { ...root.properties!, priority: { enum: ['low', 'high'] } };
    assert.throws(() => compareInterface('KnowledgeEntry', { ...root, properties }, root, 'KnowledgeEntry', false), /priority: enum values differ/);
  });

  it('holds only schemas that are valid JSON Schema 2020-12 (lore does not check them at run time)', () => {
    const ajv = new Ajv2020({ strict: true, allowUnionTypes: true });
    const invalid = SCHEMA_NAMES.filter((name) => ajv.validateSchema(loadSchema(name)) !== true).map((name) => `${name}: ${ajv.errorsText(ajv.errors)}`);
    assert.deepEqual(invalid, []);
    assert.equal(ajv.validateSchema({ type: 'object', properties: { a: { type: 'strnig' } } }), false);
  });

  it('gives every property of every schema a description, for editors', () => {
    const missing: string[] = [];
    const walk = (schema: JsonSchema, path: string): void => {
      for (const [key, value] of Object.entries(schema.properties ?? {})) {
        if (value.description === undefined) missing.push(`${path}/properties/${key}`);
        walk(value, `${path}/properties/${key}`);
      }
      const children: Array<[string, JsonSchema | undefined]> = [
        ['items', schema.items],
        ...(schema.prefixItems ?? []).map((s, i): [string, JsonSchema] => [`prefixItems/${i}`, s]),
        ...(schema.anyOf ?? []).map((s, i): [string, JsonSchema] => [`anyOf/${i}`, s]),
        ...Object.entries(schema.$defs ?? {}).map(([k, s]): [string, JsonSchema] => [`$defs/${k}`, s]),
        ['additionalProperties', typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined],
      ];
      for (const [key, child] of children) if (child !== undefined) walk(child, `${path}/${key}`);
    };
    for (const name of CASES.map(([, schema]) => schema)) walk(loadSchema(name), name);
    assert.deepEqual(missing, []);
  });
});
