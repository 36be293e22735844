// The context graph: load + validate in both forms, applyUpdate, neighbourhood and context queries.
import { addRow, ENTRIES, LORE, mb, processBench, RUNS, task, type BenchContext } from '../harness.js';

const times = async (args: string[], runs = RUNS): Promise<{ ms: number[]; peak: number }> => {
  const ms: number[] = [];
  let peak = 0;
  for (let i = 0; i < runs; i++) {
    const r = await task<{ ms: number }>('graph-task.mjs', args);
    ms.push(r.ms);
    peak = Math.max(peak, r.maxRssKb);
  }
  return { ms, peak };
};

export async function graphBench({ dir }: BenchContext): Promise<void> {
  const size = `${ENTRIES.toLocaleString('en')} entities, ${(ENTRIES * 3).toLocaleString('en')} relationships`;
  process.stderr.write(`generating a context graph of ${size}...\n`);
  const generated = await task<{ relationships: number; bytes: number }>('graph-task.mjs', ['generate', dir, String(ENTRIES)]);
  const store = `${dir}/store`;
  const memory = `${dir}/context.json`;

  const cold = await times(['load-store', store, 'no-cache']);
  addRow(`graph load + validate, store form (${size}), no cache`, cold.ms, cold.peak, 'figure');
  await times(['load-store', store, 'cached'], 1);
  const warm = await times(['load-store', store, 'cached']);
  addRow('graph load, store form, record cache warm', warm.ms, warm.peak, 'figure');
  const file = await times(['load-memory', memory]);
  addRow(`graph load + validate, memory file (${mb(generated.bytes / 1024)}, ${generated.relationships.toLocaleString('en')} relationships kept)`, file.ms, file.peak, 'figure');

  const applied: number[] = [];
  const saves: number[] = [];
  let peak = 0;
  for (let i = 0; i < RUNS; i++) {
    const r = await task<{ ms: number; saveMs: number }>('graph-task.mjs', ['apply', memory, '1000']);
    applied.push(r.ms);
    saves.push(r.saveMs);
    peak = Math.max(peak, r.maxRssKb);
  }
  addRow('applyUpdate, 1,000 entities (500 new) + 3,000 relationships', applied, peak, 'figure');
  addRow('save of that memory file (atomic)', saves, undefined, 'figure');

  const near = await task<{ latencies: number[]; average: number }>('graph-task.mjs', ['neighbourhood', memory, '500']);
  addRow(`neighbourhood, depth 2 (per query, ${Math.round(near.average)} entities on average)`, near.latencies, undefined, 'figure');
  const context = await task<{ latencies: number[]; average: number; wholeMs: number; wholeTokens: number }>('graph-task.mjs', ['context', memory, '200', '2000']);
  addRow(`context around an entity, depth 2, budget 2,000 tokens (per call, ${Math.round(context.average)} tokens on average)`, context.latencies, undefined, 'figure');
  addRow(`context of the whole graph, budget 8,000 tokens (${context.wholeTokens} tokens)`, [context.wholeMs], undefined, 'figure');
  await processBench('lore graph context --around X --depth 2 --budget 2000 (whole process, store, cache warm)', [LORE, 'graph', 'context', '--around', 'Component 1 data_store', '--depth', '2', '--budget', '2000'], 'figure', store);
}
