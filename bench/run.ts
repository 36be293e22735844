// `npm run bench`: figures (median, p95, peak memory) against DESIGN.md §5's targets.
// It never fails on a timing: this machine is shared and noisy. Options: --entries N --runs N --only a,b,
// --prohibitions N (the peers section's guarded commit; 3,000 by default).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateStore } from './generate.js';
import { ENTRIES, ms, printTable, type BenchContext } from './harness.js';

// One section per area (bench/sections/<area>.ts), loaded only when it runs.
const SECTIONS: Array<[string, (ctx: BenchContext) => Promise<void>]> = [
  ['store', async (ctx) => (await import('./sections/store.js')).storeBench(ctx)],
  ['knowledge', async (ctx) => (await import('./sections/knowledge.js')).knowledgeBench(ctx)],
  ['player-coach', async (ctx) => (await import('./sections/player-coach.js')).playerCoachBench(ctx)],
  ['graph', async (ctx) => (await import('./sections/graph.js')).graphBench(ctx)],
  ['dag', async (ctx) => (await import('./sections/dag.js')).dagBench(ctx)],
  ['guard', async (ctx) => (await import('./sections/guard.js')).guardBench(ctx)],
  ['mcp', async (ctx) => (await import('./sections/mcp.js')).mcpBench(ctx)],
  ['daemon', async (ctx) => (await import('./sections/daemon.js')).daemonBench(ctx)],
  ['peers', async (ctx) => (await import('./sections/peers.js')).peersBench(ctx)],
  ['concurrency', async (ctx) => (await import('./sections/concurrency.js')).concurrencyBench(ctx)],
];

// --only store,guard runs just those sections.
const only = process.argv.includes('--only') ? new Set(process.argv[process.argv.indexOf('--only') + 1]?.split(',')) : undefined;
const dir = mkdtempSync(join(tmpdir(), 'lore-bench-'));
try {
  process.stderr.write(`generating a store of ${ENTRIES} entries...\n`);
  const started = Date.now();
  const store = await generateStore(join(dir, 'store'), ENTRIES);
  process.stderr.write(`  done in ${ms(Date.now() - started)} (${store.prohibitions} prohibitions)\n`);
  for (const [name, section] of SECTIONS.filter(([name]) => only === undefined || only.has(name))) {
    const sectionDir = join(dir, `section-${name}`);
    mkdirSync(sectionDir);
    await section({ dir: sectionDir, store: store.root });
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
printTable();
