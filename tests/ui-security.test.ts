// In real Chromium: a page from another origin cannot change the store through the daemon (a
// simple no-cors POST, a form post, a fetch with a guessed token), and cannot read it; the UI's own
// page loads under its Content-Security-Policy with no violation.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { browser, openPage, screenshot } from './helpers/browser.js';
import { startDaemon } from './helpers/daemon.js';
import { lore } from './helpers/cli.js';
import { gitRepo } from './helpers/temp.js';

test('another origin cannot change or read the store through the browser; the UI runs under its CSP', async (t) => {
  const root = gitRepo(t);
  assert.equal((await lore(['init', '--no-starter'], { cwd: root })).code, 0);
  const d = await startDaemon(t, root);
  const target = `${d.url}/api/ops/entry.add`;
  const body = JSON.stringify({ type: 'recommendation', entry: { title: 'Planted by another site', description: 'x' } });
  // The attacker's page, on another port (another origin).
  const evil = createServer((_req, res) => {
    res.setHeader('content-type', 'text/html');
    res.end(`<!doctype html><form id="f" method="POST" action="${target}" enctype="text/plain"><input name='${body.slice(0, -2)}' value='"}'></form><script>
      window.results = {};
      (async () => {
        try { await fetch(${JSON.stringify(target)}, { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: ${JSON.stringify(body)} }); window.results.simple = 'sent'; } catch (e) { window.results.simple = 'failed'; }
        try { await fetch(${JSON.stringify(target)}, { method: 'POST', headers: { 'content-type': 'application/json', 'x-lore-token': '${'0'.repeat(64)}' }, body: ${JSON.stringify(body)} }); window.results.json = 'read'; } catch (e) { window.results.json = 'blocked'; }
        try { const r = await fetch(${JSON.stringify(`${d.url}/api/records`)}); window.results.read = await r.text(); } catch (e) { window.results.read = 'blocked'; }
        window.results.done = true;
      })();
    </script>`);
  });
  await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
  t.after(() => evil.close());
  const evilUrl = `http://localhost:${(evil.address() as AddressInfo).port}/`;

  const b = await browser(t);
  const context = await b.newContext();
  const page = await context.newPage();
  await page.goto(evilUrl);
  // Runs in the page: no DOM types here.
  const page_ = globalThis as unknown as { results?: Record<string, string | boolean>; document: { getElementById(id: string): { submit(): void } } };
  await page.waitForFunction(() => (globalThis as unknown as typeof page_).results?.done === true);
  const results = await page.evaluate(() => (globalThis as unknown as typeof page_).results!);
  assert.equal(results.json, 'blocked', 'the preflight for a custom header is refused');
  assert.equal(results.read, 'blocked', 'no CORS: another origin cannot read the answer');
  await Promise.all([page.waitForLoadState('load'), page.evaluate(() => (globalThis as unknown as typeof page_).document.getElementById('f').submit())]);
  await page.waitForTimeout(300);
  const dir = join(root, '.knowledge', 'knowledge', 'recommendations');
  assert.deepEqual(existsSync(dir) ? readdirSync(dir) : [], [], 'nothing was written');

  // The UI's own page: loads, talks to the API, no CSP violation (openPage fails on console errors).
  const ui = await openPage(t, b, `${d.url}/`);
  await ui.waitForSelector('nav .watcher.watching');
  assert.equal(await ui.textContent('nav .watcher'), 'live');
  await screenshot(ui, 'shell');
});
