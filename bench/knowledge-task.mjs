// Knowledge-base benchmark tasks in a fresh process, on the built code. Prints one JSON line of figures.
import { checkPlanWithIndex } from '../dist/knowledge/pre-task-check.js';
import { loadKnowledgeIndex } from '../dist/knowledge/knowledge-index.js';
import { queryKnowledge } from '../dist/knowledge/query.js';
import { buildAgentPrompt } from '../dist/prompt/agent-prompt.js';
import { openStore } from '../dist/store/open.js';
import { taskAndPlan } from './knowledge-input.mjs';

const [task, root, count] = process.argv.slice(2);
const now = () => Number(process.hrtime.bigint()) / 1e6;
const out = (figures) => process.stdout.write(`${JSON.stringify({ ...figures, maxRssKb: process.resourceUsage().maxRSS })}\n`);
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
  const query = await time((i) => queryKnowledge(index, { taskDescription: taskAndPlan(i).task.description }, options));
  const check = await time((i) => checkPlanWithIndex(index, store.config.pre_task_check, { ...taskAndPlan(i), ...options }));
  const prompt = await time(async (i) => {
    const { task: t, plan } = taskAndPlan(i);
    buildAgentPrompt(t, plan, await checkPlanWithIndex(index, store.config.pre_task_check, { task: t, plan, ...options }));
  });
  out({ built, entries: index.entries.length, query, check, prompt });
} else {
  throw new Error(`unknown task ${task}`);
}
