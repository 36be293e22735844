// `lore mcp`: the operations as MCP tools over stdio, with the official SDK (loaded only here, so
// nothing else ever loads it). The tool list is made from the table of operations: a new operation
// is a new tool. One Workspace for the server's life, kept fresh by the stamps of the files it
// read and by a watcher on .knowledge/, so writes of other processes are seen.
import { watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { LoreError } from '../errors.js';
import { cacheWritesDone, deferCacheWrites } from '../fs/cache-writes.js';
import { forgetCheckedDirs } from '../fs/no-follow.js';
import { OPS, type OpEntry } from '../ops/registry.js';
import { runOp } from '../ops/run.js';
import { bundleSchema } from '../schema/bundle.js';
import { opSchemaPath, SCHEMA_NAMES, schemaFileName, type JsonSchema } from '../schema/schemas.js';
import { Workspace } from '../workspace/workspace.js';
import { toolError } from './_errors.js';

/** The most characters a tool answer may hold (about 25,000 tokens); a larger one asks to narrow it. */
export const MAX_ANSWER_CHARS = 100_000;

/**
 * The largest message the server reads: an input of 16 MiB (a review for learning.capture_review,
 * as the HTTP API's body cap) as a JSON string, its escapes included. The SDK's default is 10 MiB.
 * A larger message closes the connection (the SDK cannot find where the next one starts), said
 * on stderr.
 */
export const MAX_MESSAGE_BYTES = 40 * 1024 * 1024;

/**
 * `value` with every string longer than some length cut to it (and "…"), the length the largest
 * that brings its JSON within `max` characters; undefined when even cutting to 64 does not.
 */
export function cutLongStrings(value: unknown, max: number): { value: unknown; text: string; cut: number } | undefined {
  const cutTo = (at: number): { value: unknown; cut: number } => {
    let cut = 0;
    const walk = (v: unknown): unknown => {
      if (typeof v === 'string') {
        if (v.length <= at) return v;
        cut++;
        return `${v.slice(0, at)}…`;
      }
      if (Array.isArray(v)) return v.map(walk);
      if (v === null || typeof v !== 'object') return v;
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(v)) Object.defineProperty(out, key, { value: walk(item), enumerable: true, writable: true, configurable: true });
      return out;
    };
    return { value: walk(value), cut };
  };
  let low = 64;
  let high = JSON.stringify(value).length;
  const fits = (at: number): { value: unknown; text: string; cut: number } | undefined => {
    const made = cutTo(at);
    const text = JSON.stringify(made.value);
    return text.length <= max ? { ...made, text } : undefined;
  };
  let best = fits(low);
  if (best === undefined) return undefined;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    const tried = fits(mid);
    if (tried === undefined) high = mid - 1;
    else [low, best] = [mid, tried];
  }
  return best;
}

export interface McpOptions {
  cwd: string;
  store?: string | undefined;
  env: NodeJS.ProcessEnv;
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  /** Where the server reports its own troubles (stderr). */
  log: (text: string) => void;
  version: string;
}

/** An MCP tool's name for an operation: `.` becomes `_` (many model APIs accept only [A-Za-z0-9_-]). */
export function toolName(op: string): string {
  return op.replace(/\./g, '_');
}

/** Whether an output schema describes an object (MCP's structured content must be one). */
function isObjectSchema(schema: JsonSchema): boolean {
  return schema.type === 'object';
}

/** The output schema as MCP wants it: an object; any other output is wrapped as `{ result }`. */
export function outputSchemaOf(op: OpEntry): { schema: JsonSchema; wrapped: boolean } {
  const schema = bundleSchema(opSchemaPath(op.name, 'output'));
  if (isObjectSchema(schema)) return { schema, wrapped: false };
  const { $defs, title, description, ...rest } = schema;
  return {
    wrapped: true,
    schema: { type: 'object', ...(title === undefined ? {} : { title }), ...(description === undefined ? {} : { description }), additionalProperties: false, required: ['result'], properties: { result: rest }, ...($defs === undefined ? {} : { $defs }) },
  };
}

interface Tool {
  op: OpEntry;
  definition: Record<string, unknown>;
  wrapped: boolean;
}

function tools(): Map<string, Tool> {
  const out = new Map<string, Tool>();
  for (const op of OPS) {
    const output = outputSchemaOf(op);
    const name = toolName(op.name);
    out.set(name, {
      op,
      wrapped: output.wrapped,
      definition: {
        name,
        title: op.name,
        description: `${op.summary[0]!.toUpperCase()}${op.summary.slice(1)}.`,
        inputSchema: bundleSchema(opSchemaPath(op.name, 'input')),
        outputSchema: output.schema,
        annotations: { title: op.name, readOnlyHint: op.readOnly, destructiveHint: !op.readOnly && /remove|prune|reject|unrelate/.test(op.name), openWorldHint: false },
      },
    });
  }
  return out;
}

/** Keeps the workspace fresh: a watcher on .knowledge/ drops what changed files were used for. */
function watchStore(ws: Workspace, root: string, log: (text: string) => void): FSWatcher | undefined {
  const dir = join(root, '.knowledge');
  try {
    const watcher = watch(dir, { recursive: true }, (_event, file) => {
      forgetCheckedDirs();
      if (file !== null) ws.invalidate([join(dir, file.toString())]);
    });
    watcher.on('error', (error) => log(`lore mcp: the watcher on ${dir} stopped (${error.message}); changes are still seen by the files' stamps`));
    return watcher;
  } catch (error) {
    log(`lore mcp: cannot watch ${dir} (${(error as Error).message}); changes are still seen by the files' stamps`);
    return undefined;
  }
}

/** Serves the operations as MCP tools on stdin/stdout until stdin closes. */
export async function serveMcp(options: McpOptions): Promise<void> {
  const [{ Server }, { StdioServerTransport }, types] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/index.js'),
    import('@modelcontextprotocol/sdk/server/stdio.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]);
  // A rebuild's caches are written after the answer that needed it (made before the server ends).
  const stopDeferring = deferCacheWrites();
  const ws = new Workspace({ cwd: options.cwd, store: options.store, env: options.env, onNote: options.log });
  const table = tools();
  const server = new Server({ name: 'lore', version: options.version }, {
    capabilities: { tools: {}, resources: {} },
    instructions: 'lore is the knowledge store of this repository: prohibitions, recommendations and learnings to check before acting, player/coach turns, the context graph and a thought log. Start with the resource lore://prime (or the tool prime) for what to know at the start of a session, and call plan_check before changing files.',
  });

  server.setRequestHandler(types.ListToolsRequestSchema, async () => ({ tools: [...table.values()].map((t) => t.definition) }));

  server.setRequestHandler(types.CallToolRequestSchema, async (request) => {
    const tool = table.get(request.params.name);
    if (tool === undefined) return toolError(new LoreError('USAGE', `no tool named ${JSON.stringify(request.params.name)}`, { hint: 'list the tools to see their names' }));
    const notes: string[] = [];
    try {
      const output = await runOp(tool.op.name, request.params.arguments ?? {}, { ws, note: (text) => notes.push(text), progress: () => undefined, confined: true });
      const text = JSON.stringify(output);
      if (text.length > MAX_ANSWER_CHARS) {
        const over = `the answer of ${tool.op.name} is ${text.length} characters, over the ${MAX_ANSWER_CHARS} a tool may return`;
        if (tool.op.readOnly) return toolError(new LoreError('TOO_LARGE', over, { hint: 'narrow the request: a budget, a limit, a filter, a kind' }));
        // A change is made whatever its answer: an error here would have the caller do it again.
        // Its answer comes with its longest texts cut instead (still within the output schema).
        const cut = cutLongStrings(output, MAX_ANSWER_CHARS);
        if (cut === undefined) return toolError(new LoreError('TOO_LARGE', `${tool.op.name} was done, but ${over}`, { hint: 'do not repeat it: read what it wrote with the read tools (record_show, record_list)' }));
        return {
          content: [{ type: 'text' as const, text: cut.text }, { type: 'text' as const, text: `${tool.op.name} was done; ${over}, so its ${cut.cut} longest texts end cut, with "…"` }, ...notes.map((note) => ({ type: 'text' as const, text: note }))],
          structuredContent: (tool.wrapped ? { result: cut.value } : cut.value) as Record<string, unknown>,
        };
      }
      return {
        content: [{ type: 'text' as const, text }, ...notes.map((note) => ({ type: 'text' as const, text: note }))],
        structuredContent: (tool.wrapped ? { result: output } : output) as Record<string, unknown>,
      };
    } catch (error) {
      return toolError(error, notes);
    }
  });

  server.setRequestHandler(types.ListResourcesRequestSchema, async () => ({
    resources: [
      { uri: 'lore://prime', name: 'prime', title: 'What to know at the start of a session', description: 'The critical and high prohibitions that apply, the role constraints, the top recommendations and learnings, within a token budget', mimeType: 'text/markdown' },
      { uri: 'lore://store', name: 'store', title: 'The store', description: 'Records per kind, logs, validity', mimeType: 'application/json' },
      ...SCHEMA_NAMES.map((name) => ({ uri: `lore://schemas/${schemaFileName(name)}`, name: `schema ${name}`, description: `The JSON Schema of ${name} files`, mimeType: 'application/schema+json' })),
    ],
  }));

  server.setRequestHandler(types.ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: [{ uriTemplate: 'lore://schemas/ops/{operation}.{side}.schema.json', name: 'operation schema', description: 'The input or output JSON Schema of an operation (side: input or output)', mimeType: 'application/schema+json' }],
  }));

  server.setRequestHandler(types.ReadResourceRequestSchema, async (request) => {
    const { uri } = request.params;
    const ctx = { ws, note: () => undefined, progress: () => undefined, confined: true };
    if (uri === 'lore://prime') {
      const prime = (await runOp('agent.prime', {}, ctx)) as { text: string };
      return { contents: [{ uri, mimeType: 'text/markdown', text: prime.text }] };
    }
    if (uri === 'lore://store') return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(await runOp('store.status', {}, ctx), null, 2) }] };
    const schema = /^lore:\/\/schemas\/((?:ops\/)?[A-Za-z0-9._-]+\.schema\.json)$/.exec(uri);
    if (schema !== null && !schema[1]!.includes('..')) {
      try {
        return { contents: [{ uri, mimeType: 'application/schema+json', text: JSON.stringify(bundleSchema(schema[1]!), null, 2) }] };
      } catch {
        // not a schema lore has: the error below
      }
    }
    throw new LoreError('NOT_FOUND', `no resource ${uri}`);
  });

  const root = await ws.root().catch(() => undefined);
  const watcher = root === undefined ? undefined : watchStore(ws, root, options.log);
  const transport = new StdioServerTransport(options.stdin as never, options.stdout as never, { maxBufferSize: MAX_MESSAGE_BYTES });
  server.onerror = (error) => options.log(`lore mcp: ${error.message}`);
  await server.connect(transport);
  await new Promise<void>((resolve) => {
    server.onclose = () => resolve();
    options.stdin.on('end', () => resolve());
    options.stdin.on('close', () => resolve());
  });
  watcher?.close();
  await server.close();
  stopDeferring();
  await cacheWritesDone();
}
