// One benchmark task in a fresh process, on the built code. Prints one JSON line of figures.
import { readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { appendRecords, replayLog } from '../dist/log/ndjson.js';
import { openStore } from '../dist/store/open.js';
import { validateStore } from '../dist/store/validate.js';

const [task, ...args] = process.argv.slice(2);
const now = () => Number(process.hrtime.bigint()) / 1e6;
const out = (figures) => process.stdout.write(`${JSON.stringify({ ...figures, maxRssKb: process.resourceUsage().maxRSS })}\n`);

if (task === 'load-validate') {
  const started = now();
  const report = await validateStore(await openStore({ cwd: args[0] }));
  out({ ms: now() - started, records: report.records.length, errors: report.errors });
} else if (task === 'append-single') {
  const [file, count] = [args[0], Number(args[1])];
  const latencies = [];
  for (let i = 0; i < count; i++) {
    const started = now();
    await appendRecords(file, [{ id: `s-${i}`, timestamp: new Date().toISOString(), pad: 'x'.repeat(200) }]);
    latencies.push(now() - started);
  }
  out({ latencies });
} else if (task === 'append-worker') {
  const [file, count, tag] = [args[0], Number(args[1]), args[2]];
  for (let i = 0; i < count; i++) await appendRecords(file, [{ id: `${tag}-${i}`, timestamp: new Date().toISOString(), pad: 'x'.repeat(200) }]);
  out({});
} else if (task === 'write-log') {
  const [file, count] = [args[0], Number(args[1])];
  const base = Date.parse('2026-01-01T00:00:00Z');
  const lines = [];
  for (let i = 0; i < count; i++) lines.push(JSON.stringify({ id: `n-${i % (count * 0.8)}`, timestamp: new Date(base + i).toISOString(), project: `p${i % 10}`, thought: 'x'.repeat(150), tags: ['task'], parents: [`n-${i - 1}`], children: [] }));
  writeFileSync(file, `${lines.join('\n')}\n`);
  out({});
} else if (task === 'replay') {
  const started = now();
  const result = await replayLog(args[0]);
  out({ ms: now() - started, records: result.records.size, lines: result.lines });
} else if (task === 'count-lines') {
  const lines = readFileSync(args[0], 'utf8').split('\n').filter(Boolean);
  let torn = 0;
  for (const line of lines) try { JSON.parse(line); } catch { torn++; }
  out({ lines: lines.length, torn });
} else if (task === 'age-files') {
  // Files written seconds ago are 'racy' for the record cache; age them as a real checkout would be.
  const past = new Date(Date.now() - 3600_000);
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === '.cache' || entry.name === '.git') continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else utimesSync(path, past, past);
    }
  };
  walk(join(args[0], '.knowledge'));
  out({});
} else {
  throw new Error(`unknown task ${task}`);
}
