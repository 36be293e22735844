// `lore serve` as a real process on real stores: one per store, daemon.json and its removal, a
// killed daemon's stale file, the read commands through the daemon (same bytes as without), the
// watcher's events (content changes, problems appearing and clearing, a checkout as one batch),
// and the commit hook that never waits for it.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, renameSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { askDaemon } from '../src/cli/_daemon-client.js';
import { liveDaemon } from '../src/daemon/address.js';
import { startDaemon, type Daemon } from './helpers/daemon.js';
import { SAMPLE } from './helpers/graph-sample.js';
import { lore } from './helpers/cli.js';
import { entry, entryFiles } from './helpers/knowledge.js';
import { gitSync, repoFixture, testEnv, writeFiles } from './helpers/temp.js';

const ENTRY = 'rec-use-parameterised-queries';
const VERSION = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** A repository with a store: two entries, the sample graph and a turn (made by the CLI once for the file; each test has its own copy). */
const repoStore = repoFixture(async (root) => {
  const run = async (args: string[], input?: string): Promise<void> => {
    const result = await lore(args, { cwd: root, env: testEnv({ LORE_NO_DAEMON: '1' }), ...(input === undefined ? {} : { input }) });
    assert.equal(result.code, 0, `lore ${args.join(' ')}: ${result.stderr}`);
  };
  await run(['init', '--no-starter']);
  await run(['add', 'recommendation', '--title', 'Use parameterised queries', '--description', 'Build SQL with placeholders, never by string concatenation', '--keyword', 'sql', '--keyword', 'database']);
  await run(['add', 'prohibition', '--title', 'Never commit .env files', '--description', 'Secrets live in the vault', '--priority', 'critical', '--glob', '**/.env', '--keyword', 'env']);
  await run(['graph', 'apply', '-'], JSON.stringify(SAMPLE));
  await run(['turn', 'record', '--feature', 'FEAT-1', '--task', 'TASK-1', '--turn', '1', '--player-decision', 'add the query layer', '--coach-decision', 'revise', '--coach-reason', 'no tests', '--progress', 'query layer written', '--ac', 'login=verified', '--ac', 'logout=pending']);
}, { 'README.md': '# demo\n' });

async function health(d: Daemon): Promise<{ batches: number; served: Record<string, number>; watcher: { state: string } }> {
  return (await (await fetch(`${d.url}/api/health`)).json()) as never;
}

/** The daemon's server-sent events, collected as they come. */
async function events(t: import('node:test').TestContext, d: Daemon): Promise<{ all: Array<{ event: string; data: any }>; next(type: string, timeoutMs?: number): Promise<any> }> {
  const controller = new AbortController();
  t.after(() => controller.abort());
  const response = await fetch(`${d.url}/api/events`, { signal: controller.signal, headers: { 'x-lore-token': d.token } });
  const all: Array<{ event: string; data: any }> = [];
  let buffer = '';
  let seen = 0;
  const waiters: Array<() => void> = [];
  void (async () => {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event !== undefined && data !== undefined) all.push({ event, data: JSON.parse(data) });
          for (const w of waiters.splice(0)) w();
        }
      }
    } catch {
      // aborted at the end of the test
    }
  })();
  const next = async (type: string, timeoutMs = 5000): Promise<any> => {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const found = all.slice(seen).findIndex((e) => e.event === type);
      if (found >= 0) {
        seen += found + 1;
        return all[seen - 1]!.data;
      }
      if (Date.now() > until) throw new Error(`no ${type} event in ${timeoutMs} ms; got ${JSON.stringify(all.slice(seen))}`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  };
  await next('hello');
  return { all, next };
}

test('one daemon per store: daemon.json (0600) names it, a second one is refused with its address, SIGTERM removes both files', async (t) => {
  const root = await repoStore(t);
  const d = await startDaemon(t, root);
  const file = join(root, '.knowledge', '.cache', 'daemon.json');
  assert.equal(statSync(file).mode & 0o777, 0o600);
  const info = JSON.parse(readFileSync(file, 'utf8'));
  assert.deepEqual(Object.keys(info), ['url', 'host', 'port', 'version', 'store', 'startedAt', 'process', 'token', 'env']);
  assert.equal(info.url, d.url);
  assert.equal(info.host, '127.0.0.1');
  assert.equal(info.process.pid, d.child.pid);
  assert.equal(info.store, root);
  assert.equal(info.version, VERSION);
  assert.equal(liveDaemon(root, VERSION, testEnv())?.url, d.url);
  assert.equal(liveDaemon(root, VERSION, testEnv({ OPENAI_API_KEY: 'another' })), undefined, 'another key in the environment: read the files');
  assert.match(info.token, /^[0-9a-f]{64}$/);
  assert.ok(d.output().startsWith(`lore serve: ${root}/.knowledge at ${d.url}/  (Ctrl-C stops it)\nopen ${d.url}/?token=${info.token}\n`), d.output());

  const second = await lore(['serve', '--port', '0'], { cwd: root });
  assert.equal(second.code, 2);
  assert.equal(second.stderr, `error: a lore serve already runs for this store (pid ${d.child.pid}), at ${d.url}\nhint: open ${d.url}/, or stop it (kill ${d.child.pid}) to start another\n`);

  assert.equal(await d.stop(), 0);
  assert.equal(existsSync(file), false);
  assert.equal(existsSync(join(root, '.knowledge', '.cache', 'daemon.lock')), false);
});

test('a daemon killed with -9 leaves a stale daemon.json: the CLI reads the files, and the next lore serve replaces it', async (t) => {
  const root = await repoStore(t);
  const first = await startDaemon(t, root);
  first.child.kill('SIGKILL');
  await new Promise((resolve) => first.child.once('exit', resolve));
  assert.equal(existsSync(join(root, '.knowledge', '.cache', 'daemon.json')), true);
  const direct = await lore(['list'], { cwd: root, env: testEnv({ LORE_NO_DAEMON: '1' }) });
  assert.deepEqual(await lore(['list'], { cwd: root }), direct);
  const second = await startDaemon(t, root);
  const info = JSON.parse(readFileSync(join(root, '.knowledge', '.cache', 'daemon.json'), 'utf8'));
  assert.equal(info.process.pid, second.child.pid);
  assert.notEqual(second.token, first.token);
});

test('a daemon.json whose token would add a line to the request, or whose port is none, is not asked: the CLI reads the files', async (t) => {
  const root = await repoStore(t);
  const d = await startDaemon(t, root);
  const file = join(root, '.knowledge', '.cache', 'daemon.json');
  const info = JSON.parse(readFileSync(file, 'utf8'));
  const before = (await health(d)).served['record.list'] ?? 0;
  const direct = await lore(['list'], { cwd: root, env: testEnv({ LORE_NO_DAEMON: '1' }) });
  for (const forged of [{ token: `${info.token}\r\nx-lore-envelope: 0` }, { port: 70000 }, { port: -1 }]) {
    writeFileSync(file, JSON.stringify({ ...info, ...forged }), { mode: 0o600 });
    assert.deepEqual(await lore(['list'], { cwd: root }), direct, JSON.stringify(forged));
  }
  assert.equal((await health(d)).served['record.list'] ?? 0, before);
});

test('a server on daemon.json\'s port that answers more than any store could (64 MB) is not listened to: the CLI reads the files', async (t) => {
  const root = await repoStore(t);
  await startDaemon(t, root);
  const file = join(root, '.knowledge', '.cache', 'daemon.json');
  const info = JSON.parse(readFileSync(file, 'utf8'));
  // A well-formed answer, only too large: 65 MB of one string as the output.
  const piece = Buffer.alloc(1 << 20, 'a');
  const server = createServer((socket) => {
    socket.on('error', () => undefined);
    socket.write('HTTP/1.0 200 OK\r\ncontent-type: application/json\r\n\r\n{"output":"');
    let sent = 0;
    const pump = (): void => {
      while (sent < 65 && socket.write(piece)) sent++;
      if (sent >= 65) socket.end('"}');
    };
    socket.on('drain', pump);
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => server.close());
  const direct = await lore(['list'], { cwd: root, env: testEnv({ LORE_NO_DAEMON: '1' }) });
  writeFileSync(file, JSON.stringify({ ...info, port: (server.address() as AddressInfo).port }), { mode: 0o600 });
  assert.equal(await askDaemon({ cwd: root, store: undefined, env: testEnv(), version: VERSION, note: () => undefined }, 'record.list', {}), undefined);
  assert.deepEqual(await lore(['list'], { cwd: root }), direct);
});

test('the CLI gets the daemon\'s answer itself, an output or a refusal, on 127.0.0.1 and on ::1 (not only the daemon running the operation)', async (t) => {
  const root = await repoStore(t);
  const loopback6 = Object.values(networkInterfaces()).some((list) => (list ?? []).some((a) => a.address === '::1'));
  for (const host of loopback6 ? ['127.0.0.1', '::1'] : ['127.0.0.1']) {
    const d = await startDaemon(t, root, ['--host', host]);
    const ask = (op: string, input: unknown): Promise<{ output: unknown } | undefined> => askDaemon({ cwd: root, store: undefined, env: testEnv(), version: VERSION, note: () => undefined }, op, input);
    // Several times over: a connection the daemon closed before it answered was one run in many.
    for (let i = 0; i < 5; i++) {
      const listed = await ask('record.list', {});
      assert.ok(listed !== undefined && Array.isArray(listed.output) && listed.output.some((r: { id: string }) => r.id === ENTRY), `${host}: record.list ${i}`);
      assert.equal(((await ask('record.show', { id: ENTRY }))?.output as { id?: string } | undefined)?.id, ENTRY, `${host}: record.show ${i}`);
      await assert.rejects(ask('record.show', { id: 'no-such-id' }), (error: Error & { code?: string }) => error.code === 'NOT_FOUND' && error.message === 'no record with id "no-such-id"', `${host}: a refusal ${i}`);
    }
    assert.equal(await d.stop(), 0);
  }
});

test('the read commands print the same through the daemon as from the files, byte for byte, and the daemon answered each', async (t) => {
  const root = await repoStore(t);
  const task = JSON.stringify({ task: { description: 'add a database query for users' }, plan: { approach: 'write the sql by string concatenation', fileChanges: [{ path: 'src/db/users.ts' }, { path: 'config/.env' }] } });
  const runs: Array<{ args: string[]; input?: string; op: string }> = [
    { args: ['query', 'database sql queries'], op: 'knowledge.query' },
    { args: ['check-plan'], input: task, op: 'plan.check' },
    { args: ['prompt', 'agent'], input: task, op: 'prompt.agent' },
    { args: ['prompt', 'coach', '--task-type', 'feature', '--complexity', '5', '--feature', 'FEAT-1', '--task', 'TASK-1', '--turn', '2'], op: 'prompt.coach' },
    { args: ['prime'], op: 'agent.prime' },
    { args: ['list'], op: 'record.list' },
    { args: ['show', ENTRY], op: 'record.show' },
    { args: ['show', 'no-such-id'], op: 'record.show' },
    { args: ['graph', 'context'], op: 'graph.context' },
    { args: ['turn', 'latest', '--feature', 'FEAT-1'], op: 'turn.latest' },
  ];
  // An invalid record (its error has a code frame) and unreadable turn-log lines (notes on stderr).
  writeFileSync(join(root, '.knowledge', 'knowledge', 'recommendations', 'rec-broken.yaml'), 'id: rec-broken\ntype: recommendation\ntitle: Broken\ndescription: x\nscope: global\nkeywords: []\npriority: urgent\nsource: manual\ncreatedAt: "2026-01-01T00:00:00.000Z"\nupdatedAt: "2026-01-01T00:00:00.000Z"\ncreatedBy: me\nenabled: true\n');
  runs.push({ args: ['show', 'rec-broken'], op: 'record.show' });
  const turns = join(root, '.knowledge', 'turns');
  const turnLog = join(turns, readdirSync(turns)[0]!, 'FEAT-1.ndjson');
  writeFileSync(turnLog, `${readFileSync(turnLog, 'utf8')}${Array.from({ length: 300 }, (_, i) => `{"not a turn": ${i}}\n`).join('')}`);
  const direct = [];
  for (const run of runs) {
    for (const json of [false, true]) {
      const args = json ? [...run.args, '--json'] : run.args;
      direct.push(await lore(args, { cwd: root, env: testEnv({ LORE_NO_DAEMON: '1' }), ...(run.input === undefined ? {} : { input: run.input }) }));
    }
  }
  const d = await startDaemon(t, root);
  let at = 0;
  for (const run of runs) {
    for (const json of [false, true]) {
      const args = json ? [...run.args, '--json'] : run.args;
      const expected: unknown = direct[at++];
      assert.deepEqual(await lore(args, { cwd: root, ...(run.input === undefined ? {} : { input: run.input }) }), expected, `lore ${args.join(' ')}`);
    }
  }
  assert.equal(direct[2]!.code, 1, 'check-plan is blocked by the .env prohibition, the same way both times');
  assert.equal(direct[14]!.code, 2, 'show of an unknown id fails the same way both times');
  assert.match(direct[20]!.stderr, /\n {2}> \d+ \| priority: urgent\n/, 'the error of an invalid record has its code frame');
  assert.ok(direct[18]!.stderr.split('\n').length > 300, 'turn latest notes every unreadable line');
  const served = (await health(d)).served;
  for (const run of runs) assert.ok((served[run.op] ?? 0) >= 2, `the daemon answered ${run.op}: ${JSON.stringify(served)}`);
  // --memory-file is read where the command runs: the daemon is not asked.
  const before = served['graph.context'];
  writeFileSync(join(root, 'context.json'), JSON.stringify({ entities: [], relationships: [] }));
  const local = await lore(['graph', 'context', '--memory-file', 'context.json'], { cwd: root });
  assert.equal(local.code, 0, local.stderr);
  assert.equal((await health(d)).served['graph.context'], before);
});

test('the watcher: a change on disk is an event with its record, a record made invalid shows its problem and clears, a touch is nothing, the index follows', async (t) => {
  const root = await repoStore(t);
  const d = await startDaemon(t, root);
  const stream = await events(t, d);
  const file = join(root, '.knowledge', 'knowledge', 'recommendations', `${ENTRY}.yaml`);
  const rel = `.knowledge/knowledge/recommendations/${ENTRY}.yaml`;
  const original = readFileSync(file, 'utf8');

  writeFileSync(file, original.replace('title: Use parameterised queries', 'title: Use bound parameters in queries'));
  const changed = await stream.next('change');
  assert.deepEqual(changed, { paths: [rel], records: [{ path: rel, kind: 'recommendation', id: ENTRY, change: 'changed' }], problems: { appeared: [], cleared: [] }, by: 'watcher' });
  const shown = await lore(['show', ENTRY, '--json'], { cwd: root });
  assert.equal(JSON.parse(shown.stdout).value.title, 'Use bound parameters in queries');

  writeFileSync(file, original.replace('priority: medium', 'priority: urgent'));
  const broken = await stream.next('change');
  assert.deepEqual(broken.problems.appeared.map((p: any) => [p.file, p.pointer, p.message]), [[rel, '/priority', 'priority must be one of low, medium, high, critical (found "urgent")']]);
  const kept = (await (await fetch(`${d.url}/api/problems`, { headers: { 'x-lore-token': d.token } })).json()) as { problems: Array<{ file: string; pointer: string }> };
  assert.deepEqual(kept.problems.map((p) => [p.file, p.pointer]), [[rel, '/priority']]);
  writeFileSync(file, original);
  const fixed = await stream.next('change');
  assert.deepEqual(await (await fetch(`${d.url}/api/problems`, { headers: { 'x-lore-token': d.token } })).json(), { problems: [] });
  assert.deepEqual(fixed.problems, { appeared: [], cleared: broken.problems.appeared });

  const batches = (await health(d)).batches;
  utimesSync(file, new Date(), new Date());
  await sleep(400);
  assert.equal((await health(d)).batches, batches, 'a touch changes no content: no batch');

  const added = await lore(['add', 'learning', '--title', 'Migrations run in a transaction', '--description', 'A failed migration leaves nothing behind', '--json'], { cwd: root });
  assert.equal(added.code, 0, added.stderr);
  const id = JSON.parse(added.stdout).id;
  const event = await stream.next('change');
  assert.deepEqual(event.records, [{ path: `.knowledge/knowledge/learnings/${id}.yaml`, kind: 'learning', id, change: 'added' }]);
});

test('a record folder swapped for a link to the same files: the daemon lets go of its records at the watcher\'s event, as the CLI refuses them', async (t) => {
  const root = await repoStore(t);
  const d = await startDaemon(t, root);
  const stream = await events(t, d);
  const record = () => fetch(`${d.url}/api/records/${ENTRY}`, { headers: { 'x-lore-token': d.token } });
  assert.equal((await record()).status, 200);
  const folder = join(root, '.knowledge', 'knowledge', 'recommendations');
  const moved = join(root, 'moved-recommendations');
  renameSync(folder, moved);
  symlinkSync(moved, folder);
  // The event comes at once (well before the 30 s reconcile); its records are removed.
  const change = await stream.next('change', 10_000);
  assert.deepEqual(change.records.filter((r: { id: string }) => r.id === ENTRY).map((r: { change: string }) => r.change), ['removed']);
  assert.notEqual((await record()).status, 200);
  const cli = await lore(['show', ENTRY], { cwd: root, env: testEnv({ LORE_NO_DAEMON: '1' }) });
  assert.notEqual(cli.code, 0);
  assert.match(cli.stderr, /is a symbolic link/, cli.stderr);
});

test('a checkout that rewrites 300 files is one batch, and the daemon answers from the new files', async (t) => {
  const root = await repoStore(t);
  gitSync(root, ['add', '-A']);
  gitSync(root, ['commit', '-qm', 'store']);
  gitSync(root, ['checkout', '-qb', 'many']);
  writeFiles(root, entryFiles(Array.from({ length: 300 }, (_, i) => entry({ id: `lrn-bulk-${String(i).padStart(3, '0')}` }))));
  gitSync(root, ['add', '-A']);
  gitSync(root, ['commit', '-qm', 'many learnings']);
  gitSync(root, ['checkout', '-q', 'main']);
  const d = await startDaemon(t, root);
  const stream = await events(t, d);
  const before = (await health(d)).batches;
  execFileSync('git', ['checkout', '-q', 'many'], { cwd: root, env: testEnv() });
  const batch = await stream.next('change');
  assert.equal(batch.paths.length, 300);
  assert.deepEqual(batch.problems.appeared, []);
  await sleep(300);
  assert.equal((await health(d)).batches, before + 1);
  const listed = await lore(['list', 'learnings', '--json'], { cwd: root });
  assert.equal(JSON.parse(listed.stdout).filter((r: { id: string }) => r.id.startsWith('lrn-bulk-')).length, 300);
});

test('the commit hook never waits for the daemon, even one that is stopped', { timeout: 60_000 }, async (t) => {
  const root = await repoStore(t);
  gitSync(root, ['add', '-A']);
  gitSync(root, ['commit', '-qm', 'store']);
  const d = await startDaemon(t, root);
  process.kill(d.child.pid!, 'SIGSTOP');
  try {
    writeFileSync(join(root, 'app.ts'), 'export const x = 1;\n');
    gitSync(root, ['add', 'app.ts']);
    const hook = await lore(['hook', 'pre-commit'], { cwd: root });
    assert.equal(hook.code, 0, hook.stderr);
    // The read commands do not wait for it either: a stopped daemon is not a live one.
    assert.equal(liveDaemon(root, VERSION, testEnv()), undefined);
    assert.deepEqual(await lore(['list'], { cwd: root }), await lore(['list'], { cwd: root, env: testEnv({ LORE_NO_DAEMON: '1' }) }));
    writeFileSync(join(root, '.env'), 'SECRET=1\n');
    gitSync(root, ['add', '.env']);
    assert.equal((await lore(['hook', 'pre-commit'], { cwd: root })).code, 1);
  } finally {
    process.kill(d.child.pid!, 'SIGCONT');
  }
});

test('writes through the daemon and through the CLI at the same moment all land, each as its own file', async (t) => {
  const root = await repoStore(t);
  const d = await startDaemon(t, root);
  const http = Array.from({ length: 20 }, (_, i) => fetch(`${d.url}/api/ops/entry.add`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-lore-token': d.token },
    body: JSON.stringify({ type: 'learning', entry: { title: `Learned over http ${i}`, description: 'from the UI' } }),
  }).then(async (r) => ({ status: r.status, id: ((await r.json()) as { id: string }).id })));
  const cli = Array.from({ length: 8 }, (_, i) => lore(['add', 'learning', '--title', `Learned on the command line ${i}`, '--description', 'from a terminal', '--json'], { cwd: root }));
  const [viaHttp, viaCli] = await Promise.all([Promise.all(http), Promise.all(cli)]);
  assert.deepEqual(viaHttp.map((r) => r.status), Array(20).fill(200));
  assert.deepEqual(viaCli.map((r) => r.code), Array(8).fill(0));
  const ids = [...viaHttp.map((r) => r.id), ...viaCli.map((r) => JSON.parse(r.stdout).id as string)];
  assert.equal(new Set(ids).size, 28);
  for (const id of ids) assert.equal(existsSync(join(root, '.knowledge', 'knowledge', 'learnings', `${id}.yaml`)), true, id);
  const status = gitSync(root, ['status', '--porcelain', '--untracked-files=all', '--', '.knowledge/knowledge/learnings']);
  assert.equal(status.split('\n').filter((l) => l.startsWith('?? ')).length, 28);
});
