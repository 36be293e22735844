// The knowledge base: lore query, lore check-plan and prompt building on the generated store,
// per call in-process (on a built index, as the daemon will hold it) and as whole CLI processes;
// relevance on the labelled paraphrase set, keyword only and semantic + keyword.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { addFigure, addRow, ENTRIES, interleave, LORE, processBench, ratios, ROOT, RUNS, task, wholeProcess, type BenchContext } from '../harness.js';
import { taskAndPlan } from '../knowledge-input.mjs';

interface KnowledgeFigures {
  built: number;
  entries: number;
  keywordQuery: number[];
  firstSemantic: number;
  query: number[];
  checkFirst: number[];
  check: number[];
  prompt: number[];
}

interface Recall { found: number; total: number; recall: number }
const recall = (r: Recall): string => `${r.recall.toFixed(3)} (${r.found}/${r.total})`;

export async function knowledgeBench({ store }: BenchContext): Promise<void> {
  process.stderr.write('knowledge: load + index, query, check-plan, prompt in-process...\n');
  // Aged files and one discarded run leave the record cache and the index snapshot warm, as a checkout in use has them.
  await task('task.mjs', ['age-files', store]);
  await task('knowledge-task.mjs', ['knowledge', store, '1']);
  const builds: number[] = [];
  const all: KnowledgeFigures = { built: 0, entries: 0, keywordQuery: [], firstSemantic: 0, query: [], checkFirst: [], check: [], prompt: [] };
  const firsts: number[] = [];
  let peak = 0;
  for (let run = 0; run < RUNS; run++) {
    const figures = await task<KnowledgeFigures>('knowledge-task.mjs', ['knowledge', store, '50']);
    builds.push(figures.built);
    firsts.push(figures.firstSemantic);
    for (const key of ['keywordQuery', 'query', 'checkFirst', 'check', 'prompt'] as const) all[key].push(...figures[key]);
    peak = Math.max(peak, figures.maxRssKb);
  }
  addRow(`knowledge index: load from its snapshot (entry files stamped), ${ENTRIES} entries`, builds, undefined, 'figure');
  addRow(`query in-process, keyword only (use_semantic: false), per call`, all.keywordQuery, undefined, 'figure (through the daemon: HTTP p50 under 2 ms)');
  addRow(`first semantic query of a process: word table + ${ENTRIES} entry vectors from the snapshot`, firsts, peak, 'figure');
  const computed: number[] = [];
  for (let run = 0; run < RUNS; run++) computed.push((await task<{ ms: number }>('knowledge-task.mjs', ['entry-vectors', store])).ms);
  addRow(`the same without the snapshot: ${ENTRIES} entry vectors computed and saved`, computed, undefined, 'figure');
  addRow(`query in-process, semantic + keyword (built-in word vectors), per call`, all.query, undefined, 'figure (through the daemon: HTTP p50 under 2 ms)');
  addRow(`check-plan in-process (20 files), per call, the first 50 calls of a process`, all.checkFirst, undefined, 'figure');
  addRow(`check-plan on a built index (20 files), per call, the next 50`, all.check, undefined, 'p50 under 2 ms (issue 15)');
  addRow('prompt building (check + buildAgentPrompt), per call', all.prompt, undefined, 'figure');

  process.stderr.write('knowledge: whole CLI processes...\n');
  // The floors and the commands in turn, round after round: each ratio is taken pair by pair, so
  // a floor measured at a quick moment of the machine and lore at a slow one does not skew it.
  const description = taskAndPlan(1).task.description;
  const input = JSON.stringify(taskAndPlan(2));
  const processes = [
    wholeProcess(['-e', ''], store),
    wholeProcess([join(ROOT, 'bench/stamp-floor.mjs')], store),
    wholeProcess([join(ROOT, 'bench/stamp-floor.mjs'), 'own'], store),
    wholeProcess([LORE, 'query', description, '--json'], store),
    wholeProcess([LORE, 'check-plan', '--json'], store, input),
    wholeProcess([LORE, 'prompt', 'agent'], store, input),
  ];
  const [floor, look, ownLook, query, checkPlan, prompt] = await interleave(processes.map((p) => p.step), Math.max(RUNS, 10));
  const peakOf = (i: number): number => processes[i]!.peak();
  const perPair = (series: readonly number[]): string => `${ratios(series, floor!).paired.toFixed(2)}× per pair`;
  addRow("node -e '' (floor, knowledge section, interleaved)", floor!, peakOf(0), 'the floor');
  addRow(`node + the ${ENTRIES} entry files' look by find, its stamp remembered (no cache read, no index, no ranking)`, look!, peakOf(1), `the floor of a lore process that trusts its caches (${perPair(look!)})`);
  addRow(`node + the same look taken by lore itself (a listing per folder, an lstat per file)`, ownLook!, peakOf(2), `figure (where find is not GNU find; ${perPair(ownLook!)})`);
  addRow(`lore query, ${ENTRIES} entries (whole process, cache warm)`, query!, peakOf(3), `under 3× node -e '' (issue 15): ${perPair(query!)}`);
  addRow(`lore check-plan, ${ENTRIES} entries (whole process, cache warm)`, checkPlan!, peakOf(4), `under 3× node -e '' (issue 15): ${perPair(checkPlan!)}`);
  addRow(`lore prompt agent, ${ENTRIES} entries (whole process, cache warm)`, prompt!, peakOf(5), `figure (${perPair(prompt!)})`);
  const config = join(store, '.knowledge/config.yaml');
  const text = readFileSync(config, 'utf8');
  writeFileSync(config, text.replace('use_semantic: true', 'use_semantic: false'));
  try {
    await processBench(`lore query, keyword only (use_semantic: false), same store`, [LORE, 'query', description, '--json'], 'figure', store);
  } finally {
    writeFileSync(config, text);
  }

  const relevance = await task<{ paraphrases: Record<'keyword' | 'semantic', Recall>; keywords: Record<'keyword' | 'semantic', Recall> }>('knowledge-task.mjs', ['relevance', store]);
  addFigure('relevance: paraphrased queries, recall@5, keyword only', recall(relevance.paraphrases.keyword), 'tests/fixtures/paraphrase-relevance.json', 'figure');
  addFigure('relevance: paraphrased queries, recall@5, semantic + keyword', recall(relevance.paraphrases.semantic), 'tests/knowledge-relevance.test.ts', 'figure');
  addFigure('relevance: keyword queries, recall@5, keyword only / semantic + keyword', `${recall(relevance.keywords.keyword)} / ${recall(relevance.keywords.semantic)}`, '', 'figure');
}
