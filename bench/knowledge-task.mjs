// Knowledge-base benchmark tasks in a fresh process, on the built code. Prints one JSON line of figures.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { checkPlanWithIndex } from '../dist/knowledge/pre-task-check.js';
import { buildKnowledgeIndex, loadKnowledgeIndex } from '../dist/knowledge/knowledge-index.js';
import { queryKnowledge } from '../dist/knowledge/query.js';
import { buildAgentPrompt } from '../dist/prompt/agent-prompt.js';
import { openStore } from '../dist/store/open.js';
import { taskAndPlan } from './knowledge-input.mjs';
import { recallAt, relevanceFixture, topOf } from './relevance.mjs';

const [task, root, count] = process.argv.slice(2);
const now = () => Number(process.hrtime.bigint()) / 1e6;
const out = (figures) => process.stdout.write(`${JSON.stringify({ ...figures, maxRssKb: process.resourceUsage().maxRSS })}\n`);
const lexical = (index) => ({ ...index, matching: { ...index.matching, use_semantic: false } });
if (task === 'knowledge') {
  const started = now();
  const store = await openStore({ cwd: root });
  const { index } = await loadKnowledgeIndex(store);
  const built = now() - started;
  const calls = Number(count);
  const time = async (fn) => {
    const latencies = [];
    for (let i = 0; i < calls; i++) {
      const t = now();
      await fn(i);
      latencies.push(now() - t);
    }
    return latencies;
  };
  const options = { root: store.root, projectId: store.config.project };
  const keyword = lexical(index);
  const keywordQuery = await time((i) => queryKnowledge(keyword, { taskDescription: taskAndPlan(i).task.description }, options));
  // The first semantic query reads the word table and the entry vectors (or computes them).
  const t = now();
  await queryKnowledge(index, { taskDescription: taskAndPlan(0).task.description }, options);
  const firstSemantic = now() - t;
  const query = await time((i) => queryKnowledge(index, { taskDescription: taskAndPlan(i).task.description }, options));
  // A daemon's index serves many checks: the first calls of a process pay for V8 compiling the
  // hot loops (and for compiling the globs the plans' paths reach), the later ones do not.
  const checkFirst = await time((i) => checkPlanWithIndex(index, store.config.pre_task_check, { ...taskAndPlan(i), ...options }));
  const check = await time((i) => checkPlanWithIndex(index, store.config.pre_task_check, { ...taskAndPlan(calls + i), ...options }));
  const prompt = await time(async (i) => {
    const { task: t, plan } = taskAndPlan(i);
    buildAgentPrompt(t, plan, await checkPlanWithIndex(index, store.config.pre_task_check, { task: t, plan, ...options }));
  });
  out({ built, entries: index.entries.length, keywordQuery, firstSemantic, query, checkFirst, check, prompt });
} else if (task === 'entry-vectors') {
  // Without the snapshot: the first semantic query embeds every entry and writes the snapshot.
  rmSync(join(root, '.knowledge/.cache/knowledge-vectors.bin'), { force: true });
  const store = await openStore({ cwd: root });
  const { index } = await loadKnowledgeIndex(store);
  const t = now();
  const result = await queryKnowledge(index, { taskDescription: taskAndPlan(0).task.description }, { root: store.root });
  out({ computed: result.semantic.computed, ms: now() - t });
} else if (task === 'relevance') {
  // The labelled set of tests/fixtures/paraphrase-relevance.json, keyword only and semantic + keyword.
  const fixture = relevanceFixture();
  const at = '2026-01-01T00:00:00.000Z';
  const entries = fixture.entries.map((e) => ({ ...e, scope: 'global', source: 'manual', createdAt: at, updatedAt: at, createdBy: 'bench', enabled: true, timesApplied: 0, timesHelpful: 0 }));
  const semantic = buildKnowledgeIndex(entries, { use_semantic: true, semantic_threshold: 0.7, keyword_boost: 1.5 });
  const rank = (index) => async (query, k) => topOf(await queryKnowledge(index, { taskDescription: query, maxResults: k }, { root }), k);
  out({
    paraphrases: { keyword: await recallAt(fixture.paraphrases, rank(lexical(semantic)), 5), semantic: await recallAt(fixture.paraphrases, rank(semantic), 5) },
    keywords: { keyword: await recallAt(fixture.keywords, rank(lexical(semantic)), 5), semantic: await recallAt(fixture.keywords, rank(semantic), 5) },
  });
} else {
  throw new Error(`unknown task ${task}`);
}
