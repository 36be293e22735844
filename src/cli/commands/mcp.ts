import { readFileSync } from 'node:fs';
import { defineCommand } from '../command.js';

export const command = defineCommand({
  name: 'mcp',
  summary: 'serve the operations as MCP tools over stdio (for agents)',
  usage: '[options]',
  description: [
    'Starts an MCP server on standard input and output: every operation of lore is a tool (named with _ for',
    '., e.g. knowledge_query, plan_check, turn_record), with its input and output JSON Schemas; read-only',
    'ones are marked so. Resources: lore://prime (what to know at the start of a session), lore://store',
    '(the store summary) and lore://schemas/... (the schemas). Many servers, CLI runs and the daemon may',
    'write one store at once: writes are serialised and none is lost. Stops when standard input closes.',
  ].join('\n'),
  options: {},
  positionals: [0, 0],
  json: false,
  examples: ['lore mcp', 'claude mcp add lore -- npx lore mcp'],
  async run(ctx) {
    const { serveMcp } = await import('../../mcp/server.js');
    const version = (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
    await serveMcp({ cwd: ctx.cwd, store: ctx.storeDir, env: ctx.env, stdin: ctx.stdin, stdout: process.stdout, log: ctx.note, version });
    return 0;
  },
});
