// Concurrency and crashes: many processes writing one store at once (every acknowledged write must
// be there), and kill -9 at random moments of operations that write many files (all or none).
// Counts, not timings: what DESIGN.md §5 asks is that nothing is lost.
import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crashRuns } from '../../tests/helpers/crash.js';
import { CRASH_CASES, GRAPH_APPLY } from '../../tests/helpers/crash-cases.js';
import { addFigure, ROOT, type BenchContext } from '../harness.js';
import { turnRecordThroughput } from './player-coach.js';

const WORKER = join(ROOT, 'tests/fixtures/store-worker.mjs');

function worker(args: string[]): Promise<string[]> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [WORKER, ...args], { maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error !== null) return reject(new Error(`store worker ${args.join(' ')} failed: ${stderr}`));
      resolve(stdout.split('\n').filter((l) => l.startsWith('ack ')));
    });
  });
}

function freshStore(dir: string, name: string): string {
  const root = join(dir, name);
  mkdirSync(join(root, '.knowledge'), { recursive: true });
  writeFileSync(join(root, '.knowledge/config.yaml'), 'version: 1\nproject: bench\n');
  return root;
}

const seconds = (started: number): string => `${((performance.now() - started) / 1000).toFixed(1)} s`;

export async function concurrencyBench({ dir }: BenchContext): Promise<void> {
  process.stderr.write('concurrency and crashes: 8 × 50 adds...\n');
  let root = freshStore(dir, 'adds');
  let started = performance.now();
  const adds = (await Promise.all(Array.from({ length: 8 }, (_, w) => worker(['add', root, String(w), '50'])))).flat();
  const written = readdirSync(join(root, '.knowledge/knowledge/prohibitions')).filter((n) => !n.startsWith('.')).length;
  addFigure('8 processes × 50 lore adds: written / reported', `${written} / ${adds.length}`, seconds(started), 'every write present (400 / 400)');

  process.stderr.write('concurrency and crashes: 8 × 10 graph merges...\n');
  root = freshStore(dir, 'graph');
  started = performance.now();
  const tags = (await Promise.all(Array.from({ length: 8 }, (_, w) => worker(['tag', root, String(w), '10'])))).flat();
  const relates = (await Promise.all(Array.from({ length: 8 }, (_, w) => worker(['relate', root, String(w), '10'])))).flat();
  const entities = join(root, '.knowledge/graph/entities');
  const records = readdirSync(entities).map((f) => readFileSync(join(entities, f), 'utf8'));
  const kept = (records.find((r) => r.includes('name: Shared'))?.match(/^ {2}- w\d+-\d+$/gm) ?? []).length;
  const rels = (records.find((r) => r.includes('name: Hub'))?.match(/^ {2}- to: /gm) ?? []).length;
  addFigure('8 processes × 10 tags on one entity: kept / reported', `${kept} / ${tags.length}`, '', 'every merge kept (80 / 80)');
  addFigure('8 processes × 10 relationships from one entity: kept / reported', `${rels} / ${relates.length}`, seconds(started), 'every merge kept (80 / 80)');

  for (const c of CRASH_CASES) {
    const runs = c === GRAPH_APPLY ? 100 : 20;
    process.stderr.write(`concurrency and crashes: ${runs} kills of ${c.name}...\n`);
    const summary = await crashRuns(c, { runs, seed: 2026, parallel: 2 });
    const partial = summary.partial.length + summary.invalid.length;
    addFigure(`kill -9 during ${c.args[0] === 'graph' || c.args[0] === 'turn' ? c.args.slice(0, 2).join(' ') : c.args[0]}: partial or invalid runs`, `${partial} of ${runs}`, `${summary.none} none, ${summary.all} all`, '0 partial, store valid');
  }
  rmSync(join(dir, 'adds'), { recursive: true, force: true });
  await turnRecordThroughput({ dir, store: '' });
}

