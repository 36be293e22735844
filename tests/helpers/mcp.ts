// A real MCP client (the official SDK's) talking to `lore mcp` over stdio, as agents do.
import type { TestContext } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { LORE_BIN } from './cli.js';
import { stopWithTest, testEnv } from './temp.js';

/** Starts `lore mcp` in `cwd` and connects a client; both stop when the test ends. */
export async function mcpClient(t: TestContext, cwd: string, env: NodeJS.ProcessEnv = testEnv()): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [LORE_BIN, 'mcp'], cwd, env: env as Record<string, string>, stderr: 'pipe' });
  let errors = '';
  transport.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const client = new Client({ name: 'lore-tests', version: '1.0.0' });
  await client.connect(transport);
  stopWithTest(t, () => client.close());
  return { client, stderr: () => errors };
}

/** The text of a tool result's first content item. */
export function firstText(result: unknown): string {
  const content = (result as { content: Array<{ type: string; text?: string }> }).content;
  return content[0]?.text ?? '';
}
