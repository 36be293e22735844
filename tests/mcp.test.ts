// lore mcp, through the official SDK's client over stdio: the operations as tools with their
// schemas, tool errors that carry lore's message and places, resources, and another process's
// writes seen by a running server.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { OPS } from '../src/ops/registry.js';
import { spawn } from 'node:child_process';
import { LORE_BIN, lore } from './helpers/cli.js';
import { entry, entryFiles } from './helpers/knowledge.js';
import { firstText, mcpClient } from './helpers/mcp.js';
import { gitRepo, tempDir, tempStore, testEnv } from './helpers/temp.js';

const STORE = {
  '.knowledge/config.yaml': 'version: 1\nproject: shop\n',
  ...entryFiles([entry({ id: 'pro-env', type: 'prohibition', priority: 'critical', title: 'Never commit .env files', globs: ['**/.env'] }), entry({ id: 'rec-strict', title: 'Use strict mode' })]),
};

describe('lore mcp', () => {
  it('lists every operation as a tool, named with _ for ., with its input and output schemas and whether it only reads', async (t) => {
    const { client } = await mcpClient(t, tempStore(t, STORE));
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((tool) => tool.name).sort(), OPS.map((op) => op.name.replace(/\./g, '_')).sort());
    const status = tools.find((tool) => tool.name === 'store_status')!;
    assert.deepEqual([status.title, status.annotations?.readOnlyHint, status.inputSchema.type, status.outputSchema?.type], ['store.status', true, 'object', 'object']);
    const list = tools.find((tool) => tool.name === 'record_list')!;
    // An output that is not an object (a list) is given as { result }.
    assert.deepEqual([list.outputSchema?.required, (list.outputSchema?.properties as Record<string, { type?: string }>).result?.type], [['result'], 'array']);
    assert.equal(tools.find((tool) => tool.name === 'store_seed')!.annotations?.readOnlyHint, false);
    // Self-contained: no reference leaves the document.
    assert.deepEqual(tools.filter((tool) => /"\$ref":"(?!#)/.test(JSON.stringify([tool.inputSchema, tool.outputSchema]))).map((tool) => tool.name), []);
    // Valid JSON Schema 2020-12 as a client receives it: each compiles on its own.
    const ajv = new Ajv2020({ strict: false, allowUnionTypes: true, validateFormats: false });
    const broken = tools.flatMap((tool) => [['input', tool.inputSchema], ['output', tool.outputSchema]].flatMap(([side, schema]) => {
      try {
        ajv.compile(schema as object);
        return [];
      } catch (error) {
        return [`${tool.name} ${String(side)}: ${(error as Error).message}`];
      }
    }));
    assert.deepEqual(broken, []);
  });

  it('answers a tool call with the operation\'s output, as text and as structured content the client checked', async (t) => {
    const { client } = await mcpClient(t, tempStore(t, STORE));
    const status = await client.callTool({ name: 'store_status', arguments: {} });
    assert.equal(status.isError, undefined);
    const structured = status.structuredContent as { project: string; counts: { prohibition: number }; valid: boolean };
    assert.deepEqual([structured.project, structured.counts.prohibition, structured.valid], ['shop', 1, true]);
    assert.deepEqual(JSON.parse(firstText(status)), structured);
    const list = await client.callTool({ name: 'record_list', arguments: { kind: 'prohibitions' } });
    assert.deepEqual((list.structuredContent as { result: Array<{ id: string }> }).result.map((r) => r.id), ['pro-env']);
    const prime = await client.callTool({ name: 'agent_prime', arguments: { budget: 500 } });
    assert.match((prime.structuredContent as { text: string }).text, /\n- \*\*pro-env\*\* Never commit \.env files: /);
  });

  it('gives lore\'s message, places and hint as a tool error, for bad input and for a refusal', async (t) => {
    const { client } = await mcpClient(t, tempStore(t, STORE));
    const bad = await client.callTool({ name: 'record_show', arguments: { id: 'pro-env', kindd: 'x' } });
    assert.equal(bad.isError, true);
    assert.equal(firstText(bad), 'error: the input of record.show is invalid\nrecord.show input: error: /kindd: unknown field "kindd" (did you mean "kind"?)');
    const missing = await client.callTool({ name: 'record_show', arguments: { id: 'pro-evn' } });
    assert.equal(missing.isError, true);
    assert.equal(firstText(missing), 'error: no record with id "pro-evn"\nhint: did you mean pro-env?');
    const json = JSON.parse((missing.content as Array<{ text: string }>)[1]!.text) as { error: { code: string; hint: string } };
    assert.deepEqual([json.error.code, json.error.hint], ['NOT_FOUND', 'did you mean pro-env?']);
    const unknown = await client.callTool({ name: 'knowledge_qery', arguments: {} });
    assert.deepEqual([unknown.isError, firstText(unknown)], [true, 'error: no tool named "knowledge_qery"\nhint: list the tools to see their names']);
  });

  it("takes only the repository's own files for the paths its input names: never .git/, .knowledge/, a link or outside", async (t) => {
    const root = gitRepo(t, STORE);
    const outside = tempDir(t);
    const hook = join(root, '.git', 'hooks', 'pre-commit');
    writeFileSync(hook, '#!/bin/sh\nexec lore hook pre-commit\n', { mode: 0o755 });
    mkdirSync(join(root, 'docs'));
    symlinkSync(outside, join(root, 'docs', 'out'));
    writeFileSync(join(root, 'a.txt'), 'hello\n');
    const { client } = await mcpClient(t, root);
    const refused = async (name: string, args: Record<string, unknown>, message: string) => {
      const result = await client.callTool({ name, arguments: args });
      assert.equal(result.isError, true, `${name} ${JSON.stringify(args)}`);
      assert.equal(firstText(result), `error: ${message}\nhint: over HTTP and MCP, ${message.split(' ')[0]} names a file of the repository (${root}) outside .git/ and .knowledge/; the CLI takes any path`);
    };
    await refused('guard_check', { files: ['a.txt'], writeBaseline: '.git/hooks/pre-commit' }, 'writeBaseline ".git/hooks/pre-commit" is inside .git/');
    await refused('guard_check', { files: ['a.txt'], writeBaseline: join(outside, 'victim.sh') }, `writeBaseline ${JSON.stringify(join(outside, 'victim.sh'))} is not inside the repository`);
    await refused('guard_check', { files: ['a.txt'], baseline: '/etc/passwd' }, 'baseline "/etc/passwd" is not inside the repository');
    await refused('graph_add_entity', { name: 'x', type: 'service', memoryFile: '.knowledge/knowledge/recommendations/evil.json' }, 'memoryFile ".knowledge/knowledge/recommendations/evil.json" is inside .knowledge/');
    await refused('graph_add_entity', { name: 'x', type: 'service', memoryFile: 'docs/out/context.json' }, 'memoryFile "docs/out/context.json" goes through the symbolic link docs/out');
    await refused('graph_show', { memoryFile: '../../../../../../etc/passwd' }, 'memoryFile "../../../../../../etc/passwd" is not inside the repository');
    await refused('graph_export', { memoryFile: '.GIT/config' }, 'memoryFile ".GIT/config" is inside .GIT/');
    await refused('dag_migrate', { dir: '..' }, 'dir ".." is not inside the repository');
    // A hooks folder of the repository (core.hooksPath): a baseline never replaces another file.
    mkdirSync(join(root, '.githooks'));
    writeFileSync(join(root, '.githooks/pre-commit'), '#!/bin/sh\nexec lore hook pre-commit\n', { mode: 0o755 });
    const overHook = await client.callTool({ name: 'guard_check', arguments: { files: ['a.txt'], writeBaseline: '.githooks/pre-commit' } });
    assert.equal(overHook.isError, true);
    assert.equal(firstText(overHook), `error: ${join(root, '.githooks/pre-commit')} exists and is not a lore baseline: lore does not write over it\nhint: name another file, or delete that one first`);
    assert.equal(readFileSync(join(root, '.githooks/pre-commit'), 'utf8'), '#!/bin/sh\nexec lore hook pre-commit\n');
    const forced = await client.callTool({ name: 'graph_export', arguments: { memoryFile: 'README.md', force: true } });
    assert.deepEqual([forced.isError, firstText(forced)], [true, 'error: force is for the CLI: over HTTP and MCP, a file that is not a memory file is never replaced']);
    // The files guard.check reads: never through a link (a clone may hold one to any file).
    symlinkSync('/etc/passwd', join(root, 'pw'));
    await refused('guard_check', { files: ['pw'] }, 'files[] "pw" goes through the symbolic link pw');
    await refused('guard_check', { files: ['.git/config'] }, 'files[] ".git/config" is inside .git/');
    assert.equal(readFileSync(hook, 'utf8'), '#!/bin/sh\nexec lore hook pre-commit\n');
    assert.equal(existsSync(join(outside, 'victim.sh')), false);
    assert.equal(existsSync(join(outside, 'context.json')), false);
    assert.equal(existsSync(join(root, '.knowledge/knowledge/recommendations/evil.json')), false);
    // The repository's own files are taken.
    const baseline = await client.callTool({ name: 'guard_check', arguments: { files: ['a.txt'], writeBaseline: 'baselines/lore.json' } });
    assert.equal(baseline.isError, undefined, firstText(baseline));
    assert.equal(readFileSync(join(root, 'baselines/lore.json'), 'utf8'), '{\n  "version": 1,\n  "findings": []\n}\n');
    const graph = await client.callTool({ name: 'graph_add_entity', arguments: { name: 'api', type: 'service', memoryFile: 'graphs/context.json' } });
    assert.equal(graph.isError, undefined, firstText(graph));
    assert.ok(existsSync(join(root, 'graphs/context.json')));
  });

  it('refuses an answer over 100,000 characters, saying how to narrow the request', async (t) => {
    const many = Array.from({ length: 120 }, (_, i) => entry({ id: `rec-${i}`, title: `Advice ${i}`, description: 'x'.repeat(1000) }));
    const { client } = await mcpClient(t, tempStore(t, { ...STORE, ...entryFiles(many) }));
    const all = await client.callTool({ name: 'record_list', arguments: { kind: 'recommendations' } });
    assert.equal(all.isError, true);
    assert.match(firstText(all), /^error: the answer of record\.list is \d{6} characters, over the 100000 a tool may return\nhint: narrow the request: a budget, a limit, a filter, a kind$/);
    const one = await client.callTool({ name: 'record_show', arguments: { id: 'rec-7' } });
    assert.equal(one.isError, undefined);
  });

  it('answers a write whose answer is over 100,000 characters as done, its longest texts cut, never as an error', async (t) => {
    const root = tempStore(t, STORE);
    const { client } = await mcpClient(t, root);
    const description = 'word '.repeat(30_000);
    const added = await client.callTool({ name: 'entry_add', arguments: { type: 'recommendation', entry: { id: 'rec-big-answer', title: 'A long one', description } } });
    assert.equal(added.isError, undefined, firstText(added));
    const content = added.content as Array<{ text: string }>;
    assert.ok(content[0]!.text.length <= 100_000, `${content[0]!.text.length} characters`);
    assert.match(content[1]!.text, /^entry\.add was done; the answer of entry\.add is \d{6} characters, over the 100000 a tool may return, so its 1 longest texts end cut, with "…"$/);
    const structured = added.structuredContent as { id: string; entry: { description: string } };
    assert.equal(structured.id, 'rec-big-answer');
    assert.ok(structured.entry.description.endsWith('…') && description.startsWith(structured.entry.description.slice(0, -1)));
    // The whole text is on disk, once.
    const shown = await lore(['show', 'rec-big-answer', '--json'], { cwd: root });
    const stored = (JSON.parse(shown.stdout) as { value: { description: string } }).value.description;
    assert.ok(stored === description, `${stored.length} characters stored, ${description.length} sent`);
  });

  it('reads a message of 12 MiB and answers it; one over 40 MiB closes the connection, saying why on stderr', async (t) => {
    const child = spawn(process.execPath, [LORE_BIN, 'mcp'], { cwd: tempStore(t, STORE), env: testEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    t.after(() => child.kill('SIGKILL'));
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    // The last message is still being written when the server closes: the pipe then breaks.
    child.stdin.on('error', () => undefined);
    const send = (message: object | string) => child.stdin.write(`${typeof message === 'string' ? message : JSON.stringify(message)}\n`);
    const answer = async (id: number): Promise<{ result?: { isError?: boolean; content: Array<{ text: string }> } }> => {
      for (;;) {
        const found = stdout.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as { id?: number }).find((message) => message.id === id);
        if (found !== undefined) return found as never;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    await answer(1);
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'store_status', arguments: { pad: 'x'.repeat(12 * 1024 * 1024) } } });
    send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'store_status', arguments: {} } });
    const big = await answer(2);
    assert.equal(big.result?.isError, true);
    assert.match(big.result!.content[0]!.text, /^error: the input of store\.status is invalid\n/);
    assert.equal((await answer(3)).result?.isError, undefined);
    send(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"store_status","arguments":{"pad":"${'x'.repeat(41 * 1024 * 1024)}"}}}`);
    assert.equal(await exited, 0);
    assert.match(stderr, /^lore mcp: ReadBuffer exceeded maximum size of 41943040 bytes$/m);
  });

  it('sees what another process writes while it runs', async (t) => {
    const root = tempStore(t, STORE);
    const { client } = await mcpClient(t, root);
    const before = await client.callTool({ name: 'record_list', arguments: { kind: 'prohibitions' } });
    assert.equal((before.structuredContent as { result: unknown[] }).result.length, 1);
    const added = await lore(['add', 'prohibition', '--title', 'No force push', '--description', 'Shared history.'], { cwd: root });
    assert.equal(added.code, 0, added.stderr);
    const after = await client.callTool({ name: 'record_list', arguments: { kind: 'prohibitions' } });
    assert.deepEqual((after.structuredContent as { result: Array<{ id: string }> }).result.map((r) => r.id), ['pro-env', 'pro-no-force-push']);
  });

  it('offers the prime, the store and the schemas as resources', async (t) => {
    const { client } = await mcpClient(t, tempStore(t, STORE));
    const { resources } = await client.listResources();
    assert.deepEqual(resources.slice(0, 2).map((r) => r.uri), ['lore://prime', 'lore://store']);
    assert.ok(resources.some((r) => r.uri === 'lore://schemas/knowledge-entry.schema.json'));
    const prime = await client.readResource({ uri: 'lore://prime' });
    assert.match((prime.contents[0] as { text: string }).text, /^# lore: what to know before you act \(project shop\)\n/);
    const schema = await client.readResource({ uri: 'lore://schemas/ops/record.list.output.schema.json' });
    assert.equal(JSON.parse((schema.contents[0] as { text: string }).text).type, 'array');
    await assert.rejects(client.readResource({ uri: 'lore://schemas/../package.json' }), /no resource lore:\/\/schemas\/\.\.\/package\.json/);
  });
});
