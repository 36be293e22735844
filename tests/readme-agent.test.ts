// The README's "Using lore from an agent" snippets, run as shown: in a repository with lore
// installed as a dev dependency (node_modules/.bin/lore and node_modules/lore-knowledge), each MCP
// configuration starts a server a real SDK client talks to, the SessionStart hook's command primes,
// the check-plan line stops a plan that breaks a critical prohibition, and every command the
// AGENTS.md snippet shows runs.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { LORE_BIN } from './helpers/cli.js';
import { entry, entryFiles } from './helpers/knowledge.js';
import { gitRepo, tempDir, testEnv } from './helpers/temp.js';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const README = readFileSync(join(REPO, 'docs', 'guides', 'agents.md'), 'utf8');

/** The fenced block right after `<!-- tested: NAME -->`. */
function snippet(name: string): string {
  const match = new RegExp(`<!-- tested: ${name} -->\\n\`\`\`[a-z]*\\n([\\s\\S]*?)\\n\`\`\`\\n`).exec(README);
  assert.ok(match, `README has no tested snippet ${name}`);
  return match[1]!;
}

/** A repository with a store and lore installed as a dev dependency. */
function project(t: TestContext): string {
  const root = gitRepo(t, {
    'package.json': '{ "name": "shop", "private": true, "devDependencies": { "lore-knowledge": "*" } }\n',
    '.knowledge/config.yaml': 'version: 1\nproject: shop\n',
    ...entryFiles([
      entry({ id: 'pro-env', type: 'prohibition', priority: 'critical', title: 'Never commit .env files', description: 'Secrets stay out of git.', globs: ['**/.env'] }),
      entry({ id: 'rec-limits', title: 'Rate limits use a token bucket', description: 'Refill per second; reject with 429.', keywords: ['rate', 'limiting'] }),
    ]),
    'task.json': '{ "description": "add rate limiting to the API" }\n',
    'good-plan.json': '{ "approach": "a token bucket per client", "fileChanges": [{ "path": "src/api/limit.ts" }] }\n',
    'bad-plan.json': '{ "approach": "keep the API key in an env file", "fileChanges": [{ "path": "config/.env" }] }\n',
  });
  mkdirSync(join(root, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(REPO, join(root, 'node_modules', 'lore-knowledge'));
  symlinkSync(LORE_BIN, join(root, 'node_modules', '.bin', 'lore'));
  return root;
}

/** Runs a shell command line in `cwd`, as a hook or a pipeline would. */
function sh(line: string, cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', line], { cwd, env: testEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/** Connects the SDK's client to the server a configuration starts, and asks it something. */
async function serve(t: TestContext, command: string, args: string[], cwd: string): Promise<void> {
  const transport = new StdioClientTransport({ command, args, cwd, env: testEnv() as Record<string, string>, stderr: 'pipe' });
  const client = new Client({ name: 'readme-test', version: '1.0.0' });
  await client.connect(transport);
  t.after(() => client.close());
  const { tools } = await client.listTools();
  for (const name of ['knowledge_query', 'plan_check', 'agent_prime', 'store_status']) assert.ok(tools.some((tool) => tool.name === name), `no tool ${name}`);
  const status = await client.callTool({ name: 'store_status', arguments: {} });
  assert.deepEqual([status.isError, (status.structuredContent as { project: string }).project], [undefined, 'shop']);
}

interface McpConfig { mcpServers: { lore: { command: string; args: string[] } } }

describe('the README\'s snippets for agents', () => {
  it('Claude Code\'s .mcp.json starts a server in the repository', async (t) => {
    const root = project(t);
    const { command, args } = (JSON.parse(snippet('mcp-claude-code')) as McpConfig).mcpServers.lore;
    assert.deepEqual([command, args], ['npx', ['--no-install', 'lore', 'mcp']]);
    await serve(t, command, args, root);
  });

  it('Cursor\'s .cursor/mcp.json starts a server from anywhere, on the workspace\'s store', async (t) => {
    const root = project(t);
    const { command, args } = (JSON.parse(snippet('mcp-cursor')) as McpConfig).mcpServers.lore;
    const expanded = args.map((arg) => arg.replaceAll('${workspaceFolder}', root));
    await serve(t, command === 'node' ? process.execPath : command, expanded, tempDir(t));
  });

  it('a generic client\'s command line starts a server', async (t) => {
    const root = project(t);
    const [command, ...args] = snippet('mcp-generic').split(' ');
    await serve(t, command!, args, root);
  });

  it('the SessionStart hook primes on startup, resume and compaction', async (t) => {
    const root = project(t);
    const [group] = (JSON.parse(snippet('session-start')) as { hooks: { SessionStart: Array<{ matcher: string; hooks: Array<{ type: string; command: string }> }> } }).hooks.SessionStart;
    for (const source of ['startup', 'resume', 'compact']) assert.match(source, new RegExp(`^(?:${group!.matcher})$`));
    assert.equal(group!.hooks[0]!.type, 'command');
    const run = await sh(group!.hooks[0]!.command, root);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^# lore: what to know before you act \(project shop\)\n/);
    assert.match(run.stdout, /\n- \*\*pro-env\*\* Never commit \.env files: Secrets stay out of git\. \(paths: \*\*\/\.env\)\n/);
  });

  it('the pre-task line lets a clean plan through and stops one that breaks a critical prohibition', async (t) => {
    const root = project(t);
    const line = snippet('check-plan');
    const good = await sh(line.replace('plan.json', 'good-plan.json'), root);
    assert.equal(good.code, 0, good.stderr);
    const bad = await sh(line.replace('plan.json', 'bad-plan.json'), root);
    assert.equal(bad.code, 1);
    assert.match(bad.stdout, /pro-env/);
    assert.equal(bad.stderr.trim().split('\n').at(-1), 'lore blocked the plan');
  });

  it('every command of the AGENTS.md snippet runs', async (t) => {
    const root = project(t);
    const commands = [...snippet('agents-md').matchAll(/^- `(npx [^`]+)`/gm)].map((m) => m[1]!);
    assert.equal(commands.length, 4);
    const filled = commands.map((command) => command
      .replace('<your task>', 'add rate limiting')
      .replace('<id>', 'TASK-7')
      .replace('<what happened>', 'added a token bucket')
      .replace('<learning>', 'Token buckets need a burst size')
      .replace('<what to do next time>', 'Set the burst to twice the rate.')
      .replace('plan.json', 'good-plan.json'));
    assert.deepEqual(filled.filter((command) => /<[^>]+>/.test(command)), []);
    const [prime, query, check, capture] = await Promise.all(filled.map((command) => sh(command, root)));
    assert.deepEqual([prime!.code, query!.code, check!.code, capture!.code], [0, 0, 0, 0], [prime, query, check, capture].map((r) => r!.stderr).join('\n'));
    assert.match(prime!.stdout, /^# lore: what to know before you act/);
    assert.deepEqual((JSON.parse(query!.stdout) as { recommendations: Array<{ id: string }> }).recommendations.map((r) => r.id), ['rec-limits']);
    assert.equal(capture!.stdout.split(':')[0], 'captured learn-token-buckets-need-a-burst-size');
    assert.equal(readFileSync(join(root, '.knowledge/knowledge/pending/learn-token-buckets-need-a-burst-size.yaml'), 'utf8').includes('title: Token buckets need a burst size\n'), true);
  });
});
