// One thought-DAG benchmark task in a fresh process, on the built code. Prints one JSON line of figures.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Dag } from '../dist/dag/dag.js';

const [task, root, ...args] = process.argv.slice(2);
const now = () => Number(process.hrtime.bigint()) / 1e6;
const out = (figures) => process.stdout.write(`${JSON.stringify({ ...figures, maxRssKb: process.resourceUsage().maxRSS })}\n`);
const context = (p) => `/work/project-${p}`;

if (task === 'write-log') {
  // NODES nodes over PROJECTS projects, in lines of thought of 50 nodes; every 5th node reviewed by a critic.
  const [count, projects] = [Number(args[0]), Number(args[1])];
  const base = Date.parse('2026-01-01T00:00:00Z');
  const lines = [];
  for (let i = 0; i < count; i++) {
    const p = i % projects;
    const k = Math.floor(i / projects);
    const id = `n${k}`;
    const role = k % 5 === 4 ? 'critic' : 'actor';
    const parents = k % 50 === 0 ? [] : [`n${k - 1}`];
    const node = { id, project: `project-${p}`, projectContext: context(p), thought: `thought ${k}: ${'x'.repeat(120)}`, role, ...(role === 'critic' ? { verdict: 'approved', target: parents[0] } : {}), parents, children: [], tags: role === 'actor' ? ['task'] : [], ...(k % 50 === 0 ? { branchLabel: `line-${k / 50}` } : {}), createdAt: new Date(base + i).toISOString() };
    lines.push(JSON.stringify(node));
  }
  mkdirSync(join(root, '.knowledge/log'), { recursive: true });
  writeFileSync(join(root, '.knowledge/log/knowledge_graph.ndjson'), `${lines.join('\n')}\n`);
  out({ lines: lines.length });
} else if (task === 'replay') {
  // CPU time too: on a shared machine it says more than the wall clock.
  const [started, cpu] = [now(), process.cpuUsage()];
  const dag = await Dag.open({ root });
  const used = process.cpuUsage(cpu);
  out({ ms: now() - started, cpuMs: (used.user + used.system) / 1000, projects: dag.projects().length, problems: dag.problems.length });
} else if (task === 'append') {
  const dag = await Dag.open({ root });
  const [actor, critic] = [[], []];
  let previous = [];
  for (let i = 0; i < Number(args[0]); i++) {
    let started = now();
    const { node } = await dag.append({ projectContext: context(0), thought: `appended ${i}`, tags: ['task'], parents: previous });
    actor.push(now() - started);
    started = now();
    await dag.critic({ target: node.id, verdict: 'approved' });
    critic.push(now() - started);
    previous = [node.id];
  }
  out({ actor, critic });
} else if (task === 'queries') {
  const dag = await Dag.open({ root, defaultProject: 'project-0' });
  const [heads, resume] = [[], []];
  for (let i = 0; i < Number(args[0]); i++) {
    let started = now();
    const found = dag.heads();
    heads.push(now() - started);
    started = now();
    dag.resume(found[i % found.length].id);
    resume.push(now() - started);
  }
  out({ heads, resume, count: dag.heads().length });
} else {
  throw new Error(`unknown task ${task}`);
}
