// The MCP server on the generated store: from start to its first answer, then knowledge_query and
// plan_check round trips over stdio after warm-up, with the server's peak memory; next to a whole
// `lore query` process. Measured with the official SDK's client, as agents talk to it.
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { addRow, ENTRIES, LORE, type BenchContext } from '../harness.js';
import { taskAndPlan } from '../knowledge-input.mjs';

const CALLS = 200;

/** The peak resident memory of a process, from /proc (KiB), or undefined where there is none. */
function peakKb(pid: number): number | undefined {
  try {
    return Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
  } catch {
    return undefined;
  }
}

/** Round-trip times of CALLS calls after 20 of warm-up; `seen` gets each answer measured. */
async function timeCalls(client: Client, name: string, argumentsOf: (i: number) => Record<string, unknown>, seen: (answer: Record<string, unknown>) => void = () => undefined): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < CALLS + 20; i++) {
    const started = process.hrtime.bigint();
    const result = await client.callTool({ name, arguments: argumentsOf(i) });
    if (result.isError === true) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
    // The first 20 calls warm the server up (the index is built, the code optimised).
    if (i >= 20) times.push(Number(process.hrtime.bigint() - started) / 1e6);
    if (i >= 20) seen(result.structuredContent as Record<string, unknown>);
  }
  return times;
}

export async function mcpBench({ store }: BenchContext): Promise<void> {
  process.stderr.write(`mcp: lore mcp on ${ENTRIES} entries...\n`);
  const started = process.hrtime.bigint();
  const transport = new StdioClientTransport({ command: process.execPath, args: [LORE, 'mcp'], cwd: store, stderr: 'ignore' });
  const client = new Client({ name: 'lore-bench', version: '1.0.0' });
  await client.connect(transport);
  const first = await client.callTool({ name: 'knowledge_query', arguments: { taskDescription: taskAndPlan(0).task.description } });
  if (first.isError === true) throw new Error(`knowledge_query failed: ${JSON.stringify(first.content)}`);
  addRow(`lore mcp: start to the first knowledge_query answer, ${ENTRIES} entries`, [Number(process.hrtime.bigint() - started) / 1e6], undefined, 'figure');
  const query = await timeCalls(client, 'knowledge_query', (i) => ({ taskDescription: taskAndPlan(i).task.description }));
  addRow(`lore mcp: knowledge_query round trip over stdio (${CALLS} calls after warm-up)`, query, undefined, 'p50 under 5 ms');
  // The generated vocabulary makes the benchmark approach mention keywords of most prohibitions
  // (hundreds of critical blockers, an answer of 400 KB that the server refuses as too large), so
  // the tool is timed on the same 20 files with an approach of plain words (the globs still match
  // about 130 prohibitions, most critical) and 5 warnings listed.
  let blockers = 0;
  let warnings = 0;
  let chars = 0;
  const check = await timeCalls(client, 'plan_check', (i) => {
    const { task, plan } = taskAndPlan(i);
    return { task, plan: { ...plan, approach: 'Change these files and test them.' }, maxWarnings: 5 };
  }, (answer) => {
    blockers += (answer.blockers as unknown[]).length;
    warnings += (answer.warnings as unknown[]).length + ((answer.warningsOmitted as number | undefined) ?? 0);
    chars += JSON.stringify(answer).length;
  });
  const pid = transport.pid;
  const mean = (n: number): number => Math.round(n / CALLS);
  addRow(`lore mcp: plan_check round trip over stdio, 20 files (${CALLS} calls after warm-up; ${mean(blockers)} blockers, ${mean(warnings)} warnings of which 5 listed, ${Math.round(mean(chars) / 1000)} KB)`, check, pid === null ? undefined : peakKb(pid), 'p50 under 5 ms');
  await client.close();
}
