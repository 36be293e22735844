// The web UI's Player/coach, Context graph, Thought DAG and Changes screens in real Chromium,
// against a real `lore serve` on a real store (a real git repository for Changes). Each test takes
// a screenshot of its screen (test-artifacts/screenshots/).
import assert from 'node:assert/strict';
import { unlinkSync, writeFileSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { seedDefaults } from '../src/entities/seed.js';
import { renderRecord } from '../src/store/write.js';
import { browser, openPage, screenshot } from './helpers/browser.js';
import { lore, loreJson } from './helpers/cli.js';
import { startDaemon } from './helpers/daemon.js';
import { SAMPLE } from './helpers/graph-sample.js';
import { entry, entryFiles } from './helpers/knowledge.js';
import { ACME_OVERRIDES, config, ndjson, turn } from './helpers/player-coach.js';
import { gitRepo, gitSync, tempStore, testEnv, writeFiles } from './helpers/temp.js';

const texts = (page: Page, selector: string): Promise<string[]> => page.locator(selector).allInnerTexts().then((all) => all.map((t) => t.replace(/\s+/g, ' ').trim()));

/** Asserts the texts of `selector`, waiting (up to 10 s) for the page to show them: parts of a screen load one after another. */
async function expectTexts(page: Page, selector: string, expected: string[]): Promise<void> {
  const until = Date.now() + 10_000;
  let actual = await texts(page, selector);
  while (JSON.stringify(actual) !== JSON.stringify(expected) && Date.now() < until) {
    await page.waitForTimeout(50);
    actual = await texts(page, selector);
  }
  assert.deepEqual(actual, expected, selector);
}

/** Polls `read` (the page's CSP refuses the string predicates of waitForFunction) until `done` holds; 5 s at most. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const end = Date.now() + 5000;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > end) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The names cytoscape was given, once it drew `count` of them. */
async function drawnNodes(page: Page, count: number): Promise<string[]> {
  const canvas = page.locator('[data-testid="graph-canvas"]');
  const names = await until(async () => JSON.parse((await canvas.getAttribute('data-nodes', { timeout: 5000 }).catch(() => null)) ?? '[]') as string[], (n) => n.length === count);
  return names.sort();
}

describe('the web UI: context graph', () => {
  it('draws the sample graph with cytoscape, searches it, shows one entity\'s neighbourhood and its Mermaid export', async (t) => {
    const root = tempStore(t, { '.knowledge/config.yaml': 'version: 1\nproject: shop\n' });
    assert.equal((await lore(['graph', 'apply', '-'], { cwd: root, input: JSON.stringify(SAMPLE) })).code, 0);
    const daemon = await startDaemon(t, root);
    const page = await openPage(t, await browser(t), `${daemon.url}/#/graph`);

    assert.deepEqual(await drawnNodes(page, 5), SAMPLE.entities!.map((e) => e.name).sort());
    assert.equal(await page.locator('[data-testid="graph-canvas"]').getAttribute('data-edges'), '5');
    assert.equal(await page.locator('.graph-side .count').innerText(), '5 entities, 5 relationships');
    // The canvas really drew: cytoscape's layers are in the page.
    assert.ok((await page.locator('[data-testid="graph-canvas"] canvas').count()) >= 1);
    await screenshot(page, 'graph-whole');

    await page.fill('input[name="search"]', 'security');
    assert.equal(await page.locator('.graph-side .count').innerText(), '1 of 5 match');
    await expectTexts(page, '.entity-list .name', ['Auth "v2" [beta]']);
    await page.press('input[name="search"]', 'Enter');
    assert.equal(await page.locator('.entity-detail h3').innerText(), 'Auth "v2" [beta]');
    await expectTexts(page, '.entity-detail .rels li', [
      'reads "from" → C:\\data\\N #1 <b>bold</b> & `code`',
      'writes_to → C:\\data\\N #1 <b>bold</b> & `code`',
      'Web App → calls',
    ]);
    await page.fill('input[name="search"]', '');

    await page.locator('.entity-list li', { hasText: 'Web App' }).click();
    await page.click('.entity-detail button:has-text("Show neighbourhood")');
    assert.equal(new URL(page.url()).hash, '#/graph/Web%20App/1');
    assert.deepEqual(await drawnNodes(page, 3), ['Auth "v2" [beta]', 'Web App', 'end']);
    assert.equal(await page.locator('.screen-head .crumb').innerText(), 'neighbourhood of Web App');

    await page.click('button:has-text("Mermaid export")');
    const mermaid = await page.locator('pre.mermaid-text').innerText();
    assert.equal(mermaid, [
      'flowchart LR',
      '  n1["Web App<br/>(app)"]',
      '  n2["Auth #34;v2#34; [beta]<br/>(service)"]',
      '  n3["end<br/>(keyword)"]',
      '  n1 -->|"calls"| n2',
      '  n3 -->|"documents"| n1',
      '',
    ].join('\n'));
    // The same diagram as `lore graph show --format mermaid` prints for that neighbourhood.
    assert.equal(`${(await lore(['graph', 'show', 'Web App', '--format', 'mermaid'], { cwd: root })).stdout}`, mermaid);
    await screenshot(page, 'graph-neighbourhood');

    await page.selectOption('select[name="depth"]', '2');
    assert.deepEqual(await drawnNodes(page, 4), ['Auth "v2" [beta]', 'C:\\data\\N #1 <b>bold</b> & `code`', 'Web App', 'end']);
  });

  it('says how to start a graph when the store has none, and redraws when one is added on disk', async (t) => {
    const root = tempStore(t, { '.knowledge/config.yaml': 'version: 1\nproject: shop\n' });
    const daemon = await startDaemon(t, root);
    const page = await openPage(t, await browser(t), `${daemon.url}/#/graph`);
    assert.equal(await page.locator('.empty').innerText(), 'No graph yet: lore graph add-entity --name "Auth Service" --type service');
    assert.equal((await lore(['graph', 'add-entity', '--name', 'Auth Service', '--type', 'service'], { cwd: root })).code, 0);
    assert.deepEqual(await drawnNodes(page, 1), ['Auth Service']);
  });
});

describe('the web UI: thought DAG', () => {
  it('lists projects and branches with labels and depth, and shows a node with its parents, children and critic verdict', async (t) => {
    const root = tempStore(t, { '.knowledge/config.yaml': 'version: 1\nproject: shop\n' });
    const append = async (args: string[]): Promise<string> => {
      const result = await loreJson<{ node: { id: string } }>(['dag', 'append', '--project-context', '/work/demo', ...args], { cwd: root });
      assert.equal(result.code, 0, result.stderr);
      return result.json.node.id;
    };
    const plan = await append(['--thought', 'Plan the parser', '--tag', 'plan', '--branch-label', 'parser']);
    const reader = await append(['--thought', 'Split the reader from the parser', '--tag', 'task', '--parent', plan]);
    const tests = await append(['--thought', 'Write the reader tests\nwith fixtures', '--tag', 'task', '--parent', reader]);
    const docs = await append(['--thought', 'Document the format', '--tag', 'task', '--parent', plan, '--branch-label', 'docs']);
    const critic = await loreJson<{ node: { id: string } }>(['dag', 'critic', '--target', reader, '--verdict', 'needs_revision', '--reason', 'no test covers the empty file'], { cwd: root });
    assert.equal(critic.code, 0, critic.stderr);

    const daemon = await startDaemon(t, root);
    const page = await openPage(t, await browser(t), `${daemon.url}/#/dag`);
    await page.waitForSelector('table.branches tbody tr');
    await expectTexts(page, 'select[name="project"] option', ['demo (5)']);
    // The critic's review is a head too: nothing follows it yet.
    await expectTexts(page, 'table.branches tbody tr', [
      `parser ${tests} 2 Write the reader tests`,
      `docs ${docs} 1 Document the format`,
      `parser ${critic.json.node.id} 2 needs revision no test covers the empty file`,
    ]);

    await page.click(`.pick-list.plan li[data-node="${reader}"]`);
    assert.equal(new URL(page.url()).hash, `#/dag/demo/${reader}`);
    await page.waitForSelector('.node-detail .verdict');
    assert.equal(await page.locator('.node-detail .thought').innerText(), 'Split the reader from the parser');
    await expectTexts(page, '.node-detail .verdict > .badge', ['needs revision']);
    assert.match(await page.locator('.node-detail .verdict').innerText(), /^needs revision\s+no test covers the empty file/);
    assert.deepEqual(await page.locator('.node-detail .parents li').evaluateAll((els) => els.map((e) => e.getAttribute('data-node'))), [plan]);
    assert.deepEqual(await page.locator('.node-detail .children li').evaluateAll((els) => els.map((e) => e.getAttribute('data-node'))), [tests]);
    await screenshot(page, 'dag');

    await page.click(`.node-detail .parents li[data-node="${plan}"]`);
    await page.waitForSelector(`.node-detail[data-node="${plan}"]`);
    assert.equal(await page.locator('.node-detail .badge.branch').innerText(), '⎇ parser');
    // The detail's parts load one after another: wait (up to 10 s) for the new node's children.
    const children = [reader, docs].sort().join(' ');
    const childrenNow = async (): Promise<string> => (await page.locator('.node-detail .children li').evaluateAll((els) => els.map((e) => e.getAttribute('data-node')))).sort().join(' ');
    for (const until = Date.now() + 10_000; (await childrenNow()) !== children && Date.now() < until;) await new Promise((wake) => setTimeout(wake, 50));
    assert.equal(await childrenNow(), children);
  });

  it('says how to record a thought when the log is empty', async (t) => {
    const root = tempStore(t, { '.knowledge/config.yaml': 'version: 1\nproject: shop\n' });
    const daemon = await startDaemon(t, root);
    const page = await openPage(t, await browser(t), `${daemon.url}/#/dag`);
    assert.equal(await page.locator('.empty').innerText(), 'No thoughts yet: lore dag append --project-context "$PWD" --thought "Plan the parser" --tag task');
  });
});

describe('the web UI: player / coach', () => {
  it('shows roles, gates and modes with their sources for a project with overrides, and the turn history latest first, live', async (t) => {
    const log = '.knowledge/turns/acme/FEAT-7.ndjson';
    const root = tempStore(t, {
      '.knowledge/config.yaml': config(),
      '.knowledge/overrides/acme.yaml': ACME_OVERRIDES,
      [log]: ndjson([
        turn('FEAT-7', 'TASK-1', 1, 10, { coach_reason: 'the parser drops comments', blockers_found: ['no fixtures'], acceptance_criteria_status: { parse: 'pending' } }),
        turn('FEAT-7', 'TASK-1', 2, 20, { coach_decision: 'approve', acceptance_criteria_status: { parse: 'verified', errors: 'pending' }, quality_gate_results: { passed: true } }),
      ]),
      '.knowledge/turns/acme/FEAT-3.ndjson': ndjson([turn('FEAT-3', 'TASK-9', 1, 5)]),
    });
    await seedDefaults(root);
    // One mode left to the built-in fallback.
    unlinkSync(join(root, '.knowledge/modes/direct.yaml'));
    const daemon = await startDaemon(t, root);
    const page = await openPage(t, await browser(t), `${daemon.url}/#/player-coach/acme`);

    await page.waitForSelector('.role-panel[data-role="coach"] ul.sourced li');
    await expectTexts(page, 'select[name="project"] option', ['acme', 'demo']);
    assert.equal(await page.locator('.override-file').innerText(), 'overrides: .knowledge/overrides/acme.yaml');
    // The override's "Run quality gates" is already in the store's list: it is not repeated.
    await expectTexts(page, '.role-panel[data-role="coach"] h4:has-text("Must do") + ul li', [
      'Validate against acceptance criteria store',
      'Run quality gates store',
      'Provide actionable feedback store',
      'Track AC status store',
      'Verify OPG registration compliance override',
      'Check Moneyhub API contract alignment override',
    ]);
    await expectTexts(page, '.role-panel[data-role="coach"] h4:has-text("Escalate when") + ul li.override', ['Financial data handling inconsistency detected override']);
    assert.equal(await page.locator('table.gates tr[data-profile="QG-feature-4-6"] td:nth-child(5)').innerText(), '85% override');
    assert.equal(await page.locator('table.gates tr[data-profile="QG-feature-1-3"] td:nth-child(5)').innerText(), '70% store');
    await expectTexts(page, 'table.modes tbody td:last-child', ['fallback', 'store', 'store']);
    await expectTexts(page, 'table.modes tbody td:first-child', ['direct', 'task_work', 'autobuild']);

    await expectTexts(page, '.pick-list.features li .pick-title', ['FEAT-7', 'FEAT-3']);
    await page.waitForSelector('.turn');
    await expectTexts(page, '.turn .turn-head strong', ['Turn 2', 'Turn 1']);
    await expectTexts(page, '.turn:first-child .criterion', ['parse verified', 'errors pending']);
    await expectTexts(page, '.turn:first-child .turn-head .badge', ['approve', 'gates passed']);
    assert.match(await page.locator('.turn:nth-child(2)').innerText(), /Blockers\s+no fixtures/);
    await screenshot(page, 'player-coach');

    // A turn written on disk shows without a reload.
    appendFileSync(join(root, log), ndjson([turn('FEAT-7', 'TASK-2', 3, 30, { coach_decision: 'escalate' })]));
    assert.equal(await until(() => page.locator('.turn .turn-head strong').first().innerText(), (text) => text === 'Turn 3'), 'Turn 3');
    await expectTexts(page, '.turn:first-child .turn-head .badge', ['escalate']);

    // Another project: no override file, and no turns yet.
    await page.selectOption('select[name="project"]', 'demo');
    await page.waitForURL(/#\/player-coach\/demo$/);
    await page.waitForSelector('.override-file:has-text("no override file")');
    assert.equal(await page.locator('.override-file').innerText(), 'no override file (.knowledge/overrides/demo.yaml)');
    // The gates come in their own answer: the table may show the other project's for a moment.
    const gate = page.locator('table.gates tr[data-profile="QG-feature-4-6"] td:nth-child(5)');
    assert.equal(await until(() => gate.innerText(), (text) => text === '80% store'), '80% store');
    assert.equal(await page.locator('.empty').last().innerText(), 'no turns recorded for project demo yet: lore turn record --feature FEAT-001 --task TASK-001 --turn 1 …');
  });
});

describe('the web UI: changes', () => {
  it('lists uncommitted changes to .knowledge/ and the knowledge diff of the branch against main', async (t) => {
    const root = gitRepo(t, {
      '.knowledge/config.yaml': 'version: 1\nproject: shop\n',
      ...entryFiles([entry({ id: 'pro-env', type: 'prohibition', priority: 'critical', title: 'Never commit .env files', globs: ['**/.env'] }), entry({ id: 'rec-retry', title: 'Retry with backoff' })]),
    });
    gitSync(root, ['checkout', '-q', '-b', 'relax-env']);
    writeFiles(root, entryFiles([entry({ id: 'pro-env', type: 'prohibition', priority: 'high', title: 'Never commit .env files', globs: ['**/.env'] })]));
    gitSync(root, ['commit', '-qam', 'relax the env rule']);
    writeFiles(root, entryFiles([entry({ id: 'rec-small', title: 'Prefer small commits' }), entry({ id: 'rec-retry', title: 'Retry with jitter' })]));
    gitSync(root, ['add', '.knowledge/knowledge/recommendations/rec-small.yaml']);
    writeFileSync(join(root, '.knowledge/knowledge/recommendations/rec-note.yaml'), renderRecord('recommendation', entry({ id: 'rec-note', title: 'Note' })));

    const daemon = await startDaemon(t, root);
    const page = await openPage(t, await browser(t), `${daemon.url}/#/changes`);
    await page.waitForSelector('table.uncommitted');
    assert.equal(await page.locator('.screen-head .muted').innerText(), 'on relax-env compared with main');
    await expectTexts(page, 'table.uncommitted tbody tr', [
      '.knowledge/knowledge/recommendations/rec-note.yaml added recommendation untracked',
      '.knowledge/knowledge/recommendations/rec-retry.yaml modified recommendation not staged',
      '.knowledge/knowledge/recommendations/rec-small.yaml added recommendation staged',
    ]);
    await expectTexts(page, 'table.diff-records tbody tr', ['pro-env prohibition · Never commit .env files changed weakens enforcement priority lowered from critical to high']);
    assert.equal(await page.locator('.diff .banner.error').innerText(), '1 change weakens enforcement: reviewers will look at it first');
    await screenshot(page, 'changes');

    // Committing the edits moves them from the first list to the second.
    gitSync(root, ['add', '-A', '.knowledge']);
    gitSync(root, ['commit', '-qm', 'more']);
    await page.click('button:has-text("Refresh")');
    await page.waitForSelector('.empty:has-text("No uncommitted changes")');
    assert.deepEqual((await texts(page, 'table.diff-records tbody tr td:first-child .mono')), ['pro-env', 'rec-note', 'rec-retry', 'rec-small']);
  });

  it('says there is nothing to compare on a repository without a default branch', async (t) => {
    const root = gitRepo(t, { '.knowledge/config.yaml': 'version: 1\nproject: shop\n' });
    gitSync(root, ['branch', '-m', 'main', 'trunk'], testEnv());
    const daemon = await startDaemon(t, root);
    const page = await openPage(t, await browser(t), `${daemon.url}/#/changes`);
    await page.waitForSelector('.empty');
    await expectTexts(page, '.empty', ['No uncommitted changes to .knowledge/', 'No knowledge diff: no default branch to compare with (neither origin/HEAD, main nor master exists)']);
  });
});
