// The knowledge base: lore query, lore check-plan and prompt building on the generated store,
// per call in-process (on a built index, as the daemon will hold it) and as whole CLI processes.
import { addRow, ENTRIES, LORE, processBench, RUNS, task, type BenchContext } from '../harness.js';
import { taskAndPlan } from '../knowledge-input.mjs';

interface KnowledgeFigures {
  built: number;
  entries: number;
  query: number[];
  check: number[];
  prompt: number[];
}

export async function knowledgeBench({ store }: BenchContext): Promise<void> {
  process.stderr.write('knowledge: load + index, query, check-plan, prompt in-process...\n');
  // Aged files and one discarded run leave the record cache warm, as a checkout in use has it.
  await task('task.mjs', ['age-files', store]);
  await task('knowledge-task.mjs', ['knowledge', store, '1']);
  const builds: number[] = [];
  const all: KnowledgeFigures = { built: 0, entries: 0, query: [], check: [], prompt: [] };
  let peak = 0;
  for (let run = 0; run < RUNS; run++) {
    const figures = await task<KnowledgeFigures>('knowledge-task.mjs', ['knowledge', store, '50']);
    builds.push(figures.built);
    for (const key of ['query', 'check', 'prompt'] as const) all[key].push(...figures[key]);
    peak = Math.max(peak, figures.maxRssKb);
  }
  addRow(`knowledge index: load (record cache warm) + BM25 build, ${ENTRIES} entries`, builds, peak, 'figure');
  addRow(`query in-process on the built index, per call`, all.query, undefined, 'daemon: p50 under 5 ms');
  addRow(`check-plan in-process (20 files), per call`, all.check, undefined, 'daemon: p50 under 5 ms');
  addRow('prompt building (check + buildAgentPrompt), per call', all.prompt, undefined, 'figure');

  process.stderr.write('knowledge: whole CLI processes...\n');
  const description = taskAndPlan(1).task.description;
  await processBench(`lore query, ${ENTRIES} entries (whole process, cache warm)`, [LORE, 'query', description, '--json'], 'figure', store);
  const input = JSON.stringify(taskAndPlan(2));
  await processBench(`lore check-plan, ${ENTRIES} entries (whole process, cache warm)`, [LORE, 'check-plan', '--json'], 'figure', store, RUNS, input);
  await processBench(`lore prompt agent, ${ENTRIES} entries (whole process, cache warm)`, [LORE, 'prompt', 'agent'], 'figure', store, RUNS, input);
}
