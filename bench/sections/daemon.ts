// The daemon (`lore serve`) on the generated store: start-up and memory, knowledge.query and
// plan.check round trips over HTTP, a whole `lore query` process with the daemon up next to
// `node -e ''` (interleaved, same run) and without it, a file written on disk → its change event,
// a 500-file git checkout → one batch, and the web UI's first row of the knowledge table in
// Chromium. The daemon is always stopped (SIGTERM) at the end and the store put back as it was.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { renderRecord } from '../../dist/store/write.js';
import { addFigure, addRow, ENTRIES, exec, LORE, mb, ratios, reportedPeak, RSS_HOOK, RUNS, type BenchContext } from '../harness.js';
import { taskAndPlan } from '../knowledge-input.mjs';
import { ChangeEvents, closeAgent, health, op, startServe, stopServe, type Serve } from '../serve-client.js';

const CALLS = 200;
const WRITES = 40;
const CHECKOUT_FILES = 500;
const BRANCH = 'lore-bench-checkout';
const MARK = 'zqcheckout';
const CHROMIUM = '/usr/bin/chromium';
const GIT_USER = ['-c', 'user.name=bench', '-c', 'user.email=b@example.com'];

const run = promisify(execFile);
const now = (): number => performance.now();
const sleep = (n: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, n));
const kb = (bytes: number): number => bytes / 1024;

/** The peak resident memory of a process, from /proc (KiB), or undefined where there is none. */
function peakKb(pid: number | undefined): number | undefined {
  try {
    return Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
  } catch {
    return undefined;
  }
}

/** A branch whose CHECKOUT_FILES entry files (spread over the three kinds) carry MARK in their title; HEAD stays on main. */
function prepareCheckout(store: string): string[] {
  const base = join(store, '.knowledge', 'knowledge');
  const all = readdirSync(base).flatMap((kind) => readdirSync(join(base, kind)).filter((n) => n.endsWith('.yaml')).map((n) => `.knowledge/knowledge/${kind}/${n}`)).sort();
  const step = Math.max(1, Math.floor(all.length / CHECKOUT_FILES));
  const files = all.filter((_, i) => i % step === 0).slice(0, CHECKOUT_FILES);
  execFileSync('git', ['checkout', '-q', '-b', BRANCH], { cwd: store });
  for (const file of files) {
    const path = join(store, file);
    writeFileSync(path, readFileSync(path, 'utf8').replace(/^title: (.*)$/m, `title: $1 ${MARK}`));
  }
  execFileSync('git', ['add', '--', ...files], { cwd: store });
  execFileSync('git', [...GIT_USER, 'commit', '-q', '-m', 'bench: 500 entries changed'], { cwd: store });
  execFileSync('git', ['checkout', '-q', 'main'], { cwd: store });
  return files;
}

/** A word no generated entry has: letters only, so the tokenizer keeps it whole. */
const word = (i: number): string => `zqw${String.fromCharCode(97 + Math.floor(i / 26) % 26)}${String.fromCharCode(97 + i % 26)}`;

/** Start-ups: one with no record cache, then RUNS with it warm; the last one stays up. `running` holds the one up, for the caller to stop on an error. */
async function startUps(store: string, running: Set<Serve>): Promise<Serve> {
  const start = async (): Promise<Serve> => {
    const serve = await startServe(store);
    running.add(serve);
    return serve;
  };
  const stop = async (serve: Serve): Promise<void> => {
    await stopServe(serve);
    running.delete(serve);
  };
  rmSync(join(store, '.knowledge', '.cache'), { recursive: true, force: true });
  let serve = await start();
  const coldRss = (await health(serve)).rssBytes;
  await stop(serve);
  addRow(`lore serve: start until it prints its URL, ${ENTRIES} entries, record cache cold`, [serve.ms], kb(coldRss), 'figure (RSS: after start)');
  const times: number[] = [];
  let rss = 0;
  for (let i = 0; i < RUNS; i++) {
    serve = await start();
    times.push(serve.ms);
    rss = Math.max(rss, (await health(serve)).rssBytes);
    if (i < RUNS - 1) await stop(serve);
  }
  addRow(`lore serve: start until it prints its URL, ${ENTRIES} entries, record cache warm`, times, kb(rss), 'figure (RSS: after start)');
  return serve;
}

/** Round-trip times of CALLS calls of an operation after 20 of warm-up; `seen` gets each answer measured. */
async function timeCalls(serve: Serve, name: string, inputOf: (i: number) => unknown, keepAlive: boolean, seen: (answer: Record<string, unknown>) => void = () => undefined): Promise<number[]> {
  const times: number[] = [];
  // A connection of its own, never one the server may be closing after 5 s idle.
  if (keepAlive) closeAgent();
  for (let i = 0; i < CALLS + 20; i++) {
    const started = now();
    const answer = await op(serve, name, inputOf(i), keepAlive);
    if (i >= 20) {
      times.push(now() - started);
      seen(answer);
    }
  }
  return times;
}

async function roundTrips(serve: Serve): Promise<void> {
  const rssBefore = (await health(serve)).rssBytes;
  await op(serve, 'knowledge.query', { taskDescription: taskAndPlan(0).task.description });
  const rssAfter = (await health(serve)).rssBytes;
  addFigure('lore serve: RSS after start / after the first knowledge.query', `${mb(kb(rssBefore))} / ${mb(kb(rssAfter))}`, '', 'figure');
  const query = await timeCalls(serve, 'knowledge.query', (i) => ({ taskDescription: taskAndPlan(i).task.description }), true);
  addRow(`knowledge.query over HTTP, keep-alive (${CALLS} calls after warm-up)`, query, undefined, 'p50 under 2 ms');
  const fresh = await timeCalls(serve, 'knowledge.query', (i) => ({ taskDescription: taskAndPlan(i).task.description }), false);
  addRow(`knowledge.query over HTTP, a new connection per call as the CLI asks`, fresh, undefined, 'figure');
  // The same 20 files and plain-words approach as the mcp section (see there why).
  let blockers = 0;
  let warnings = 0;
  const check = await timeCalls(serve, 'plan.check', (i) => {
    const { task, plan } = taskAndPlan(i);
    return { task, plan: { ...plan, approach: 'Change these files and test them.' }, maxWarnings: 5 };
  }, true, (answer) => {
    blockers += (answer.blockers as unknown[]).length;
    warnings += (answer.warnings as unknown[]).length + ((answer.warningsOmitted as number | undefined) ?? 0);
  });
  addRow(`plan.check over HTTP, keep-alive, 20 files (${CALLS} calls after warm-up; ${Math.round(blockers / CALLS)} blockers, ${Math.round(warnings / CALLS)} warnings)`, check, undefined, 'p50 under 2 ms');
}

/** `node -e ''`, `lore query` with the daemon up and `lore query` with LORE_NO_DAEMON=1, interleaved in the same run. */
async function wholeQueries(serve: Serve, store: string): Promise<void> {
  const args = [LORE, 'query', taskAndPlan(1).task.description, '--json'];
  const rounds = Math.max(15, RUNS);
  const floor: number[] = [];
  const up: number[] = [];
  const down: number[] = [];
  /** The floor of the round each run without the daemon was in, for its ratio. */
  const downFloor: number[] = [];
  let peak = 0;
  let peakDown = 0;
  const outputs = new Set<string>();
  const servedBefore = (await health(serve)).served['knowledge.query'] ?? 0;
  for (let i = 0; i < rounds; i++) {
    // With the same --import as lore's runs, so that both pay for it.
    floor.push((await exec(['--import', RSS_HOOK, '-e', ''], store)).ms);
    const viaDaemon = await exec(['--import', RSS_HOOK, ...args], store);
    up.push(viaDaemon.ms);
    peak = Math.max(peak, reportedPeak(viaDaemon.stderr));
    outputs.add(viaDaemon.stdout);
    if (i % 3 === 0) {
      const alone = await exec(['--import', RSS_HOOK, ...args], store, undefined, { LORE_NO_DAEMON: '1' });
      down.push(alone.ms);
      downFloor.push(floor[i]!);
      peakDown = Math.max(peakDown, reportedPeak(alone.stderr));
      outputs.add(alone.stdout);
    }
  }
  const asked = ((await health(serve)).served['knowledge.query'] ?? 0) - servedBefore;
  addRow("node -e '' (floor, daemon section, interleaved)", floor, undefined, 'the floor');
  addRow(`lore query, daemon up (whole process; ${asked} of ${rounds} answered by the daemon)`, up, peak, `under 1.5× floor (${ratios(up, floor).paired.toFixed(2)}× per pair)`);
  addRow(`lore query, LORE_NO_DAEMON=1 (whole process, cache warm; same output: ${outputs.size === 1 ? 'yes' : 'NO'})`, down, peakDown, `under 3× floor (${ratios(down, downFloor).paired.toFixed(2)}× per pair)`);
}

/**
 * WRITES record writes on disk, in pairs: a new file, then the same file rewritten (chokidar finds
 * a new file by reading its folder again, a rewrite from the file's own watch): until the change
 * event, and until a query sees the new title. The new files go into `files`.
 */
async function fileChanges(serve: Serve, events: ChangeEvents, store: string, files: string[]): Promise<void> {
  const toEvent: Record<'added' | 'rewritten', number[]> = { added: [], rewritten: [] };
  const toQuery: number[] = [];
  const at = '2026-01-01T00:00:00.000Z';
  for (let i = 0; i < WRITES; i++) {
    const id = `lea-bench-watch-${Math.floor(i / 2)}`;
    const rel = `.knowledge/knowledge/learnings/${id}.yaml`;
    if (i % 2 === 0) files.push(rel);
    const entry = { id, type: 'learning', title: `watched change ${word(i)}`, description: 'A record written while the daemon runs.', scope: 'global', keywords: [word(i)], priority: 'medium', source: 'manual', createdAt: at, updatedAt: at, createdBy: 'Bench <bench@example.com>', enabled: true };
    const from = events.count;
    const started = now();
    writeFileSync(join(store, rel), renderRecord('learning', entry));
    const event = await events.waitFor(from, (paths) => paths.has(rel), 10_000);
    toEvent[i % 2 === 0 ? 'added' : 'rewritten'].push(event - started);
    const answer = await op(serve, 'knowledge.query', { taskDescription: word(i), types: ['learning'] }) as { learnings: Array<{ id: string; title: string }> };
    if (!answer.learnings.some((e) => e.id === id && e.title.endsWith(word(i)))) throw new Error(`a query after the change event does not see ${rel}`);
    toQuery.push(now() - started);
    await sleep(50);
  }
  addRow(`new record file on disk → change event (${toEvent.added.length} files, in a folder of ~${Math.round(ENTRIES * 0.35)})`, toEvent.added, undefined, 'p95 under 250 ms');
  addRow(`record file rewritten on disk → change event (${toEvent.rewritten.length} rewrites)`, toEvent.rewritten, undefined, 'p95 under 250 ms');
  addRow(`record file written on disk → a query sees it (all ${WRITES})`, toQuery, undefined, 'figure');
}

/** `git checkout` between main and a branch CHECKOUT_FILES entry files apart: until the change events name all of them, and until a query sees them. */
async function checkouts(serve: Serve, events: ChangeEvents, store: string, files: readonly string[]): Promise<void> {
  const gitTimes: number[] = [];
  const toEvent: number[] = [];
  const toQuery: number[] = [];
  const batches: number[] = [];
  const wrong: string[] = [];
  for (let i = 0; i < RUNS; i++) {
    const branch = i % 2 === 0 ? BRANCH : 'main';
    const expected = i % 2 === 0 ? files.length : 0;
    const from = events.count;
    const started = now();
    await run('git', ['checkout', '-q', branch], { cwd: store });
    gitTimes.push(now() - started);
    const event = await events.waitFor(from, (paths) => files.every((f) => paths.has(f)), 30_000);
    toEvent.push(event - started);
    const answer = await op(serve, 'knowledge.query', { taskDescription: MARK, maxResults: 2 * files.length }) as Record<'recommendations' | 'prohibitions' | 'learnings', Array<{ title: string }>>;
    toQuery.push(now() - started);
    const seen = [...answer.recommendations, ...answer.prohibitions, ...answer.learnings].filter((e) => e.title.endsWith(` ${MARK}`)).length;
    if (seen !== expected) wrong.push(`${branch}: ${seen} of ${expected}`);
    // Anything still coming (a second batch) shows up within the watcher's longest wait.
    await sleep(1200);
    batches.push(events.count - from);
  }
  addRow(`git checkout of ${files.length} entry files (floor)`, gitTimes, undefined, 'floor');
  addRow(`git checkout of ${files.length} entry files → change event (batches: ${batches.join(', ')})`, toEvent, undefined, 'one batch');
  addRow(`git checkout of ${files.length} entry files → a query sees all of them${wrong.length === 0 ? '' : ` (WRONG: ${wrong.join('; ')})`}`, toQuery, undefined, 'one consistent index');
}

/** The web UI in Chromium: from opening / until the first row of the knowledge table exists. */
async function firstRender(serve: Serve): Promise<void> {
  const name = `web UI: open / until the first row of the knowledge table, ${ENTRIES} entries (Chromium)`;
  if (!existsSync(CHROMIUM)) {
    process.stderr.write(`daemon: skipped: no Chromium at ${CHROMIUM}\n`);
    return addFigure(name, 'skipped', `no Chromium at ${CHROMIUM}`, 'figure');
  }
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu'] }).catch((error: Error) => {
    process.stderr.write(`daemon: skipped: Chromium did not start (${error.message.split('\n')[0]})\n`);
    addFigure(name, 'skipped', 'Chromium did not start', 'figure');
    return undefined;
  });
  if (browser === undefined) return;
  try {
    const times: number[] = [];
    for (let i = 0; i < Math.max(3, RUNS); i++) {
      // A new context each time: nothing cached from the last page.
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      const started = now();
      // The link lore serve prints: the page holds the token, so it opens only with it.
      await page.goto(`${serve.url}/?token=${serve.token}`);
      const rendered = await page.waitForSelector('table.data tbody tr', { timeout: 30_000 }).then(() => true, () => false);
      const elapsed = now() - started;
      await context.close();
      // What the page started after its first row (a validation of the store, ...) may still run in
      // the daemon: a health answer says it is free again, so the next page starts on an idle daemon.
      await health(serve);
      if (!rendered) {
        process.stderr.write('daemon: skipped: the knowledge table did not render\n');
        return addFigure(name, 'skipped', 'the knowledge table did not render within 30 s', 'figure');
      }
      times.push(elapsed);
    }
    addRow(name, times, undefined, 'figure');
  } finally {
    await browser.close();
  }
}

export async function daemonBench({ store }: BenchContext): Promise<void> {
  process.stderr.write(`daemon: a branch ${CHECKOUT_FILES} entry files apart...\n`);
  const checkoutFiles = prepareCheckout(store);
  const running = new Set<Serve>();
  const written: string[] = [];
  let events: ChangeEvents | undefined;
  try {
    process.stderr.write(`daemon: lore serve start-ups on ${ENTRIES} entries...\n`);
    const serve = await startUps(store, running);
    process.stderr.write('daemon: knowledge.query and plan.check over HTTP...\n');
    await roundTrips(serve);
    process.stderr.write('daemon: whole lore query processes, daemon up and not, next to node -e \'\'...\n');
    await wholeQueries(serve, store);
    events = await ChangeEvents.open(serve);
    process.stderr.write(`daemon: ${WRITES} record writes on disk...\n`);
    await fileChanges(serve, events, store, written);
    process.stderr.write(`daemon: ${RUNS} checkouts of ${checkoutFiles.length} files...\n`);
    await checkouts(serve, events, store, checkoutFiles);
    process.stderr.write('daemon: the web UI in Chromium...\n');
    await firstRender(serve);
    const peak = peakKb(serve.child.pid);
    if (peak !== undefined) addFigure('lore serve: peak RSS over the whole section', mb(peak), `after ${WRITES} writes and ${RUNS} checkouts of ${checkoutFiles.length} files`, 'figure');
  } finally {
    events?.close();
    for (const serve of running) {
      if (serve.child.exitCode !== null || serve.child.signalCode !== null) process.stderr.write(`daemon: lore serve had stopped on its own:\n${serve.output()}\n`);
      await stopServe(serve);
    }
    closeAgent();
    for (const file of written) rmSync(join(store, file), { force: true });
    execFileSync('git', ['checkout', '-q', '-f', 'main'], { cwd: store });
    execFileSync('git', ['branch', '-q', '-D', BRANCH], { cwd: store });
  }
}
