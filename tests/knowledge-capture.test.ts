// Learning capture and curation: capture rules, approve, reject and the rejection log, and
// duplicate detection at capture and on demand.
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { approveLearning, captureLearning, loadRejections, rejectLearning } from '../src/knowledge/capture.js';
import { findDuplicates, jaccard, shingles, similarity } from '../src/knowledge/duplicates.js';
import type { LearningCapture } from '../src/types.js';
import { inProcess, LORE_BIN } from './helpers/cli.js';
import { testEnv } from './helpers/temp.js';
import { seeded } from './helpers/crash.js';
import { entry, knowledgeStore } from './helpers/knowledge.js';

const { lore, loreJson } = inProcess;

const ISO = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/g;
const CAPTURE: LearningCapture = {
  taskId: 'TASK-42', projectId: 'shop', outcome: 'failure', description: 'Retries hammered the payment API during an outage.',
  rootCause: 'A fixed one-second delay', suggestedTitle: 'Retry with exponential backoff', suggestedDescription: 'Use exponential backoff with jitter when an API answers 429.',
};
const CAPTURE_FLAGS = ['capture', '--task-id', 'TASK-42', '--outcome', 'failure', '--description', CAPTURE.description, '--root-cause', CAPTURE.rootCause!, '--title', CAPTURE.suggestedTitle, '--suggested-description', CAPTURE.suggestedDescription, '--keyword', 'retry', '--priority', 'high'];

describe('capturing a learning', () => {
  const sources: Array<[string, Partial<LearningCapture>, string]> = [
    ['a successful task gives source task_success', { outcome: 'success' }, 'task_success'],
    ['a failed task gives source task_failure', { outcome: 'failure' }, 'task_failure'],
    ['a partial task gives source task_failure', { outcome: 'partial' }, 'task_failure'],
    ['review feedback keeps source code_review', { outcome: 'success', source: 'code_review' }, 'code_review'],
  ];
  for (const [name, fields, source] of sources) {
    it(name, async (t) => {
      const { store } = await knowledgeStore(t, []);
      const result = await captureLearning({ store, capture: { ...CAPTURE, ...fields }, actor: 'Agent <agent@example.com>' });
      assert.deepEqual([result.status, result.entry?.source, result.file], ['pending', source, '.knowledge/knowledge/pending/learn-retry-with-exponential-backoff.yaml']);
    });
  }

  const refusals: Array<[string, string, LearningCapture['outcome'], string]> = [
    ['auto_capture_success: false', 'capture:\n  auto_capture_success: false\n', 'success', 'capture.auto_capture_success is false: learnings from successful tasks are not captured'],
    ['auto_capture_failure: false, failure', 'capture:\n  auto_capture_failure: false\n', 'failure', 'capture.auto_capture_failure is false: learnings from failed tasks are not captured'],
    ['auto_capture_failure: false, partial', 'capture:\n  auto_capture_failure: false\n', 'partial', 'capture.auto_capture_failure is false: learnings from partially failed tasks are not captured'],
  ];
  for (const [name, config, outcome, message] of refusals) {
    it(`captures nothing with ${name}`, async (t) => {
      const { root, store } = await knowledgeStore(t, [], { config });
      assert.deepEqual(await captureLearning({ store, capture: { ...CAPTURE, outcome } }), { status: 'not-captured', message, warnings: [] });
      assert.equal(existsSync(join(root, '.knowledge/knowledge/pending')), false);
    });
  }

  it('writes a pending learning with the capture context, from the CLI', async (t) => {
    const { root } = await knowledgeStore(t, []);
    const result = await lore(CAPTURE_FLAGS, { cwd: root });
    assert.deepEqual([result.code, result.stdout], [0, 'captured learn-retry-with-exponential-backoff: waiting for review (lore approve learn-retry-with-exponential-backoff / lore reject learn-retry-with-exponential-backoff --reason ...)\n']);
    assert.equal(readFileSync(join(root, '.knowledge/knowledge/pending/learn-retry-with-exponential-backoff.yaml'), 'utf8').replace(ISO, 'T'), [
      '# yaml-language-server: $schema=../../schemas/knowledge-entry.schema.json',
      'id: learn-retry-with-exponential-backoff',
      'type: learning',
      'title: Retry with exponential backoff',
      'description: Use exponential backoff with jitter when an API answers 429.',
      'scope: global',
      'keywords:',
      '  - retry',
      'priority: high',
      'source: task_failure',
      'sourceRef: TASK-42',
      'createdAt: "T"',
      'updatedAt: "T"',
      'createdBy: unknown',
      'enabled: true',
      'capture:',
      '  taskId: TASK-42',
      '  projectId: shop',
      '  outcome: failure',
      '  description: Retries hammered the payment API during an outage.',
      '  rootCause: A fixed one-second delay',
      '',
    ].join('\n'));
    const pending = await lore(['pending'], { cwd: root });
    assert.match(pending.stdout, /^learn-retry-with-exponential-backoff {2}failure TASK-42 {2}\d{4}-\d\d-\d\d {2}Retry with exponential backoff\n$/);
  });

  it('becomes a learning at once without require_approval', async (t) => {
    const { root } = await knowledgeStore(t, [], { config: 'capture:\n  require_approval: false\n' });
    const result = await loreJson<{ status: string; file: string }>(['capture', '--from-file', '-'], { cwd: root, input: JSON.stringify(CAPTURE) });
    assert.deepEqual([result.code, result.json.status, result.json.file], [0, 'added', '.knowledge/knowledge/learnings/learn-retry-with-exponential-backoff.yaml']);
  });

  it('refuses incomplete or invalid input', async (t) => {
    const { root } = await knowledgeStore(t, []);
    assert.deepEqual(await lore(['capture', '--task-id', 'T1', '--outcome', 'failure'], { cwd: root }), { code: 2, stdout: '', stderr: 'error: lore capture needs --description, --title, --suggested-description (or --from-file)\nhint: see lore capture --help\n' });
    const bad = await lore([...CAPTURE_FLAGS.slice(0, 3), '--outcome', 'meh', ...CAPTURE_FLAGS.slice(5)], { cwd: root });
    assert.deepEqual(bad, { code: 1, stdout: '', stderr: 'error: the learning capture is invalid\n(flags): error: outcome must be one of success, failure, partial (found "meh")\n' });
  });
});

describe('approving and rejecting', () => {
  const pendingEntry = entry({ id: 'learn-retry-with-exponential-backoff', title: CAPTURE.suggestedTitle, description: CAPTURE.suggestedDescription, source: 'task_failure', capture: { taskId: 'TASK-42', projectId: 'shop', outcome: 'failure', description: CAPTURE.description } });

  it('moves an approved learning into learnings/ under the same id, with who approved it and the edits', async (t) => {
    const { root } = await knowledgeStore(t, [[pendingEntry, 'pending']]);
    const approve = await lore(['approve', pendingEntry.id, '--set', 'priority=high', '--set', 'keywords=[retry, backoff]'], { cwd: root });
    assert.deepEqual(approve, { code: 0, stdout: 'approved learn-retry-with-exponential-backoff: .knowledge/knowledge/pending/learn-retry-with-exponential-backoff.yaml → .knowledge/knowledge/learnings/learn-retry-with-exponential-backoff.yaml\n', stderr: '' });
    assert.deepEqual(readdirSync(join(root, '.knowledge/knowledge/pending')), []);
    const text = readFileSync(join(root, '.knowledge/knowledge/learnings/learn-retry-with-exponential-backoff.yaml'), 'utf8');
    assert.match(text, /\nkeywords:\n {2}- retry\n {2}- backoff\npriority: high\nsource: task_failure\ncreatedAt: "2026-01-01T00:00:00.000Z"\nupdatedAt: "(\S+)"\ncreatedBy: Test Author <author@example.com>\nenabled: true\ncapture:\n(?: {2}.*\n)+approvedBy: unknown\napprovedAt: "(\S+)"\n$/);
    const [, updated, approved] = /updatedAt: "(\S+)"[\s\S]*approvedAt: "(\S+)"/.exec(text)!;
    assert.equal(updated, approved);
    assert.deepEqual(await lore(['approve', pendingEntry.id], { cwd: root }), { code: 2, stdout: '', stderr: 'error: no knowledge entry with id "learn-retry-with-exponential-backoff" among pending learnings\nhint: lore list entries shows every id\n' });
  });

  it("stops before its commit point when the pending file is another user's: nothing moved, no journal, the store usable", { skip: process.getuid?.() === 0 ? false : 'needs root, to run lore as another user' }, async (t) => {
    const { root } = await knowledgeStore(t, [[pendingEntry, 'pending']]);
    // Everything is nobody's but pending/ (made with sudo, say): nobody may not delete from it.
    execFileSync('chown', ['-R', '65534:65534', root]);
    execFileSync('chown', ['-R', '0:0', join(root, '.knowledge/knowledge/pending')]);
    chmodSync(root, 0o755);
    const asNobody = (args: string[]) => new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, [LORE_BIN, ...args], { cwd: root, uid: 65534, gid: 65534, env: testEnv({ HOME: root }), encoding: 'utf8' }, (error, stdout, stderr) => resolve({ code: error === null ? 0 : Number(error.code), stdout, stderr }));
    });
    const approve = await asNobody(['approve', pendingEntry.id]);
    assert.deepEqual(approve, {
      code: 2,
      stdout: '',
      stderr: `error: EACCES: permission denied, access '${join(root, '.knowledge/knowledge/pending')}'\nhint: this user may not do that there: check who owns the file and its folder (one made with sudo?)\n`,
    });
    assert.deepEqual(readdirSync(join(root, '.knowledge/knowledge/pending')), ['learn-retry-with-exponential-backoff.yaml']);
    assert.deepEqual(readdirSync(join(root, '.knowledge/knowledge/learnings')), []);
    assert.deepEqual(readdirSync(join(root, '.knowledge')).filter((name) => name.startsWith('.journal')), []);
    const listed = await asNobody(['list', 'pending', '--json']);
    assert.equal(listed.code, 0, listed.stderr);
    assert.deepEqual((JSON.parse(listed.stdout) as Array<{ id: string }>).map((r) => r.id), [pendingEntry.id]);
  });

  it('refuses to approve over a learning with the same id, and keeps the pending one', async (t) => {
    const { root, store } = await knowledgeStore(t, [[pendingEntry, 'pending'], entry({ id: pendingEntry.id, title: 'Approved meanwhile' })]);
    await assert.rejects(approveLearning({ store, id: pendingEntry.id }), { code: 'CONFLICT', message: 'cannot approve learn-retry-with-exponential-backoff: a learning with this id already exists' });
    assert.deepEqual(readdirSync(join(root, '.knowledge/knowledge/pending')), ['learn-retry-with-exponential-backoff.yaml']);
  });

  it('records a rejection and recognises the same learning when it is captured again', async (t) => {
    const { root } = await knowledgeStore(t, [[pendingEntry, 'pending']]);
    assert.deepEqual(await lore(['reject', pendingEntry.id], { cwd: root }), { code: 2, stdout: '', stderr: 'error: lore reject needs --reason "..."\nhint: the reason is kept in log/rejections.ndjson\n' });
    const reject = await lore(['reject', pendingEntry.id, '--reason', 'covered by rec-retry-policy'], { cwd: root });
    assert.deepEqual(reject, { code: 0, stdout: 'rejected learn-retry-with-exponential-backoff (.knowledge/knowledge/pending/learn-retry-with-exponential-backoff.yaml removed; recorded in .knowledge/log/rejections.ndjson)\n', stderr: '' });
    assert.deepEqual(readdirSync(join(root, '.knowledge/knowledge/pending')), []);
    const line = JSON.parse(readFileSync(join(root, '.knowledge/log/rejections.ndjson'), 'utf8')) as Record<string, string>;
    assert.deepEqual({ ...line, timestamp: 'T' }, { id: pendingEntry.id, title: CAPTURE.suggestedTitle, description: CAPTURE.suggestedDescription, reason: 'covered by rec-retry-policy', rejectedBy: 'unknown', taskId: 'TASK-42', timestamp: 'T' });
    const again = await lore(CAPTURE_FLAGS, { cwd: root });
    assert.equal(again.code, 1);
    assert.match(again.stdout, /^rejected-before: not captured: it resembles learn-retry-with-exponential-backoff, rejected by unknown on \d{4}-\d\d-\d\d: covered by rec-retry-policy\nhint: the rejection is recorded in \.knowledge\/log\/rejections\.ndjson \(grep learn-retry-with-exponential-backoff\); --allow-duplicate captures it anyway\n$/);
    const forced = await loreJson<{ status: string }>([...CAPTURE_FLAGS, '--allow-duplicate'], { cwd: root });
    assert.deepEqual([forced.code, forced.json.status], [0, 'pending']);
    assert.equal((await lore(['validate'], { cwd: root })).code, 0);
  });

  it('makes a learning rejected again the latest rejection, even after one dated in the future', async (t) => {
    const earlier = { id: pendingEntry.id, title: 'T', description: 'D', reason: 'from a clock that ran ahead', rejectedBy: 'someone', timestamp: '2099-01-01T00:00:00.000Z' };
    const { root, store } = await knowledgeStore(t, [[pendingEntry, 'pending']], { files: { '.knowledge/log/rejections.ndjson': `${JSON.stringify(earlier)}\n` } });
    const { rejection } = await rejectLearning({ store, id: pendingEntry.id, reason: 'rejected again', actor: 'Reviewer <r@example.com>' });
    assert.equal(rejection.timestamp, '2099-01-01T00:00:00.001Z');
    assert.deepEqual((await loadRejections(root)).rejections.map((r) => [r.id, r.reason, r.timestamp]), [[pendingEntry.id, 'rejected again', '2099-01-01T00:00:00.001Z']]);
  });
});

describe('duplicate and similar entries', () => {
  it('measures similarity as the higher of Jaccard over stemmed words and word pairs and the cosine of the meanings', () => {
    assert.deepEqual([...shingles('Retry failed calls', 'With backoff.')].sort(), ['backoff', 'call', 'fail', 'fail call', 'retry', 'retry fail']);
    assert.equal(jaccard(new Set(['a', 'b']), new Set(['b', 'c'])), 1 / 3);
    assert.equal(similarity({ title: 'Retry failed calls', description: 'With backoff.' }, { title: 'Retrying failed calls', description: 'with BACKOFF' }), 1);
    const backoff = { title: 'Retry failed calls', description: 'With backoff.' };
    const jitter = { title: 'Retry failed calls', description: 'With jitter.' };
    assert.equal(jaccard(shingles(backoff.title, backoff.description), shingles(jitter.title, jitter.description)), 5 / 7);
    assert.equal(Math.round(similarity(backoff, jitter) * 1e4) / 1e4, 0.7784, 'the meanings are closer than the words');
    // Words nothing in the word table knows still compare by their shingles.
    assert.equal(similarity({ title: 'zxqv wqzx', description: 'qxzv.' }, { title: 'zxqv wqzx', description: 'vzxq.' }), 3 / 5);
  });

  it('finds every pair above the threshold, the same as comparing all pairs', () => {
    const topics = ['retry', 'cache', 'index', 'lock', 'token', 'schema'];
    const corpus = Array.from({ length: 60 }, (_, i) => ({ id: `e${String(i).padStart(2, '0')}`, title: `${topics[i % 6]} ${topics[(i * 7) % 6]} rules`, description: `Always ${topics[(i * 5) % 6]} before ${topics[i % 4]} when ${i % 3 === 0 ? 'deploying' : 'testing'}.` }));
    for (const threshold of [0.5, 0.8, 1]) {
      const brute = [];
      for (let i = 0; i < corpus.length; i++) {
        for (let j = i + 1; j < corpus.length; j++) {
          const value = similarity(corpus[i]!, corpus[j]!);
          if (value >= threshold) brute.push(`${corpus[i]!.id}~${corpus[j]!.id}`);
        }
      }
      const found = findDuplicates(corpus, threshold);
      assert.deepEqual(found.pairs.map((p) => `${p.a}~${p.b}`).sort(), brute.sort(), `threshold ${threshold}`);
      assert.equal(found.found, brute.length);
      assert.ok(brute.length > 0);
    }
  });

  it('finds by words exactly the pairs and similarities comparing all pairs finds, for sets of every size and thresholds on their edges', () => {
    // Words the word table does not know, so that words alone decide; entries of 1 to 30 words, many
    // of them an earlier entry with a word or two changed, so that many pairs sit on the thresholds.
    const random = seeded(21);
    const words = Array.from({ length: 14 }, (_, i) => `qz${'xkvwj'[i % 5]}${'pfgbm'[Math.floor(i / 5)]}`);
    const pick = (): string => words[Math.floor(random() ** 2 * words.length)]!;
    const corpus: Array<{ id: string; title: string; description: string }> = [];
    for (let i = 0; i < 160; i++) {
      const base = corpus.length > 0 && random() < 0.6 ? corpus[Math.floor(random() * corpus.length)]! : { title: pick(), description: Array.from({ length: Math.floor(random() * 28) }, pick).join(' ') };
      const description = base.description.split(' ').map((word) => (random() < 0.08 ? pick() : word));
      if (random() < 0.3) description.push(pick());
      corpus.push({ id: `e${String(i).padStart(3, '0')}`, title: random() < 0.1 ? pick() : base.title, description: description.join(' ') });
    }
    for (const threshold of [0.3, 0.5, 0.6, 2 / 3, 0.7, 0.75, 0.8, 0.9, 1]) {
      const brute: string[] = [];
      for (let i = 0; i < corpus.length; i++) {
        for (let j = i + 1; j < corpus.length; j++) {
          const value = similarity(corpus[i]!, corpus[j]!);
          if (value >= threshold) brute.push(`${corpus[i]!.id}~${corpus[j]!.id} ${Math.round(value * 1000) / 1000}`);
        }
      }
      const found = findDuplicates(corpus, threshold, 100_000);
      assert.deepEqual(found.pairs.map((p) => `${p.a}~${p.b} ${p.similarity}`).sort(), brute.sort(), `threshold ${threshold}`);
      assert.equal(found.found, brute.length);
      assert.ok(brute.length > 20, `threshold ${threshold}: ${brute.length} pairs`);
    }
  });

  it('lists at most max pairs, the most similar, and counts the rest', async (t) => {
    const topics = ['retry', 'cache', 'index', 'lock', 'token', 'schema'];
    const corpus = Array.from({ length: 60 }, (_, i) => ({ id: `e${String(i).padStart(2, '0')}`, title: `${topics[i % 6]} ${topics[(i * 7) % 6]} rules`, description: `Always ${topics[(i * 5) % 6]} before ${topics[i % 4]} when ${i % 3 === 0 ? 'deploying' : 'testing'}.` }));
    const all = findDuplicates(corpus, 0.8, 100_000);
    const three = findDuplicates(corpus, 0.8, 3);
    assert.deepEqual(three, { pairs: all.pairs.slice(0, 3), found: all.found });
    assert.ok(all.found > 3);
    const { root } = await knowledgeStore(t, corpus.map((e) => entry(e)));
    const cli = await lore(['duplicates', '--max', '2', '--threshold', '0.95'], { cwd: root });
    const top = findDuplicates(corpus, 0.95, 100_000);
    assert.equal(cli.stdout.split('\n').at(-2), `${top.found} similar pairs among 60 entries at similarity >= 0.95 (${top.found - 2} not listed: --max)`);
    assert.deepEqual(cli.stdout.split('\n').slice(0, 2).map((line) => line.split(/ +/).slice(0, 3)), top.pairs.slice(0, 2).map((p) => [p.similarity.toFixed(3), p.a, p.b]));
  });

  it('refuses a learning said again in other words, which word overlap alone let through, and captures unrelated ones', async (t) => {
    const listeners = entry({ id: 'learn-leaked-event-listeners', title: 'Event listeners leaked memory in the dashboard', description: 'Handlers added on every render were never removed; the heap grew until the tab crashed.' });
    const rounding = entry({ id: 'learn-invoice-rounding', title: 'Invoice totals were off by a cent', description: 'Summing floating-point prices gave 0.30000000000000004; decimal arithmetic fixed it.' });
    const { store } = await knowledgeStore(t, [listeners, rounding]);
    const capture = (suggestedTitle: string, suggestedDescription: string): ReturnType<typeof captureLearning> => captureLearning({ store, capture: { ...CAPTURE, suggestedTitle, suggestedDescription }, actor: 'Agent <agent@example.com>' });
    const reworded = ['Dashboard memory leak from listeners', 'Each render attached a new handler and none were detached, so memory kept growing until the browser tab died.'] as const;
    // The words barely overlap (Jaccard 0.157); the meaning is the same.
    assert.equal(Math.round(jaccard(shingles(...reworded), shingles(listeners.title, listeners.description)) * 1000) / 1000, 0.157);
    const again = await capture(...reworded);
    assert.deepEqual([again.status, again.similarTo, again.message], ['duplicate', { id: 'learn-leaked-event-listeners', similarity: 0.821 }, 'not captured: it resembles learn-leaked-event-listeners (similarity 0.821)']);
    // Unrelated, and related but a different point (how to store money, not the bug it caused): captured.
    const unrelated = await capture('Web fonts made the page jump while loading', 'Reserving space and font-display swap removed the layout shift.');
    const related = await capture('Store money as integer cents', 'Floating-point amounts drift by fractions of a cent after arithmetic.');
    assert.deepEqual([unrelated.status, unrelated.entry?.id, related.status, related.entry?.id], ['pending', 'learn-web-fonts-made-the-page-jump-while-loading', 'pending', 'learn-store-money-as-integer-cents']);
    assert.equal(Math.round(similarity({ title: related.entry!.title, description: related.entry!.description }, rounding) * 1000) / 1000, 0.767);
  });

  it('refuses a capture that resembles an existing entry, naming it, and lists pairs on demand', async (t) => {
    const existing = entry({ id: 'learn-backoff', title: 'Retry with exponential backoff', description: 'Back off exponentially, with jitter, when a service answers 429.' });
    const unrelated = entry({ id: 'rec-strict', title: 'Use TypeScript strict mode', description: 'Enable strict in tsconfig.json.' });
    const { root } = await knowledgeStore(t, [existing, unrelated]);
    const capture = await loreJson<{ status: string; similarTo: unknown }>(CAPTURE_FLAGS, { cwd: root });
    assert.deepEqual([capture.code, capture.json.status, capture.json.similarTo], [1, 'duplicate', { id: 'learn-backoff', similarity: 0.885 }]);
    assert.equal(existsSync(join(root, '.knowledge/knowledge/pending')), false);
    const higher = await loreJson<{ status: string }>([...CAPTURE_FLAGS, '--threshold', '0.9'], { cwd: root });
    assert.deepEqual([higher.code, higher.json.status], [0, 'pending']);
    const pairs = await lore(['duplicates'], { cwd: root });
    assert.deepEqual(pairs, { code: 0, stdout: '0.885  learn-backoff  learn-retry-with-exponential-backoff  Retry with exponential backoff / Retry with exponential backoff\n1 similar pair among 3 entries at similarity >= 0.8\n', stderr: '' });
    const json = await loreJson<{ pairs: unknown[] }>(['duplicates', '--threshold', '0.9', '--type', 'learning'], { cwd: root });
    assert.deepEqual(json.json, { threshold: 0.9, entries: 2, pairs: [], unlisted: 0 });
  });
});
