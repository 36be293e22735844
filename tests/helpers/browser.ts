// Real Chromium (Debian's `chromium`, installed by .ci/run) driven by playwright-core, closed when
// the test ends. Screenshots go to test-artifacts/screenshots/ (kept by CI, never committed); with
// LORE_UPDATE_DOCS=1 the ones the docs show are also written to docs/images/, so the docs show what ships.
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, type TestContext } from 'node:test';
import { stopping, tokens } from './daemon.js';
import { chromium, type Browser, type Page } from 'playwright-core';

const CHROMIUM = process.env.LORE_CHROMIUM ?? '/usr/bin/chromium';
export const SCREENSHOTS = new URL('../../test-artifacts/screenshots/', import.meta.url).pathname;
export const DOC_IMAGES_DIR = new URL('../../docs/images/', import.meta.url).pathname;
/** The screenshots README.md and docs/ show, each taken by a browser test under this name. */
export const DOC_IMAGES = ['knowledge-table', 'review', 'player-coach', 'graph-whole', 'dag', 'changes'] as const;

let launched: Promise<Browser> | undefined;
// The browser of a test file, closed when its tests have run.
after(async () => {
  if (launched !== undefined) await (await launched.catch(() => undefined))?.close();
});

/**
 * The browser of the test file, started by the first test that asks (one Chromium per file, not
 * per test: each page opens in a browser context of its own, closed with its test); fails (never
 * skips) when Chromium is missing: .ci/run installs it.
 */
export async function browser(_t: TestContext): Promise<Browser> {
  launched ??= chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu'] }).catch((error: Error) => {
    throw new Error(`cannot start Chromium at ${CHROMIUM} (apt-get install chromium, or set LORE_CHROMIUM): ${error.message}`);
  });
  return launched;
}

export interface OpenOptions {
  /** Console errors the test causes on purpose: Chromium logs every refused request (an invalid edit's 422) as one. */
  expected?(text: string, url: string): boolean;
}

/** A page of `url` in a 1440×900 window; console errors and failed requests fail the test at its end. */
export async function openPage(t: TestContext, b: Browser, url: string, options: OpenOptions = {}): Promise<Page> {
  const context = await b.newContext({ viewport: { width: 1440, height: 900 } });
  t.after(() => context.close());
  // What opening the link lore serve prints leaves behind: the cookie that lets the page load.
  for (const [daemon, token] of tokens) if (url.startsWith(daemon)) await context.addCookies([{ name: `lore_token_${new URL(daemon).port}`, value: token, url: daemon }]);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    // The event stream breaks when the daemon stops at the end of the test: not the page's fault.
    const from = message.location().url;
    // The event stream breaks, and requests are refused, once the daemon stops at the end of a test.
    if (message.type() !== 'error' || from.endsWith('/api/events') || [...stopping].some((url) => from.startsWith(url))) return;
    if (options.expected?.(message.text(), message.location().url) !== true) errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  t.after(() => {
    if (errors.length > 0) throw new Error(`the page logged errors:\n${errors.join('\n')}`);
  });
  await page.goto(url);
  return page;
}

/** Saves a full-page screenshot as test-artifacts/screenshots/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  if (process.env.LORE_UPDATE_DOCS === '1' && (DOC_IMAGES as readonly string[]).includes(name)) {
    mkdirSync(DOC_IMAGES_DIR, { recursive: true });
    copyFileSync(path, join(DOC_IMAGES_DIR, `${name}.png`));
  }
  return path;
}
