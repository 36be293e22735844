// Generates a realistic store of N knowledge entries (plus the seeded defaults) in a git repository.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { seedDefaults } from '../dist/entities/seed.js';
import { configTemplate } from '../dist/store/config-template.js';
import { KINDS } from '../dist/store/layout.js';
import { STORE_IGNORES } from '../dist/store/leftovers.js';
import { renderRecord } from '../dist/store/write.js';

const WORDS = 'api auth cache client config database deploy docker error event feature file git http index job json key lint log merge module network node package parser query queue retry schema secret server service session shell sql stream test thread token type upload user validate worker yaml async backoff build commit coverage diff lock migrate review'.split(' ');

/** A deterministic pseudo-random generator, so every run benchmarks the same store. */
export function rng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function words(next: () => number, count: number): string {
  return Array.from({ length: count }, () => WORDS[Math.floor(next() * WORDS.length)]).join(' ');
}

export interface GeneratedStore {
  root: string;
  entries: number;
  prohibitions: number;
}

/** A git repository with an initialised store: config.yaml and the seeded defaults. */
export async function initStore(root: string): Promise<void> {
  mkdirSync(join(root, '.knowledge'), { recursive: true });
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: root });
  writeFileSync(join(root, '.knowledge/config.yaml'), configTemplate('bench', '# yaml-language-server: $schema=schemas/config.schema.json'));
  // What lore init writes beside it. Without the .gitignore, commitAll committed .knowledge/.cache/
  // (the parse cache of config.yaml, written while seeding), and a hook never uses a cache that git
  // tracks: every "warm" hook of the bench ran cold (since 4ed1fa9, when writes began to read the config).
  writeFileSync(join(root, '.knowledge/.gitignore'), STORE_IGNORES.map((line) => `${line}\n`).join(''));
  writeFileSync(join(root, '.knowledge/.gitattributes'), '*.ndjson merge=union\n');
  await seedDefaults(root);
}

/** Writes one record file of `kind`. */
export function writeEntry(root: string, kind: 'recommendation' | 'prohibition' | 'learning', entry: Record<string, unknown>): void {
  const dir = join(root, '.knowledge', KINDS[kind].dir);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${entry.id as string}.yaml`), renderRecord(kind, entry));
}

/** Commits everything in the repository. */
export function commitAll(root: string, message: string): void {
  execFileSync('git', ['add', '-A'], { cwd: root });
  execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=b@example.com', 'commit', '-q', '-m', message], { cwd: root });
  // A cache in git would make every hook of the bench a cold one: fail the run instead.
  const tracked = execFileSync('git', ['ls-files', '.knowledge/.cache'], { cwd: root, encoding: 'utf8' });
  if (tracked !== '') throw new Error(`the bench store ${root} committed its cache (${tracked.trim().split('\n').join(', ')}): its hooks would run cold`);
}

/** An entry's common fields, with realistic text sizes. */
export function baseEntry(next: () => number, kind: string, i: number): Record<string, unknown> {
  const at = '2026-01-01T00:00:00.000Z';
  const entry: Record<string, unknown> = {
    id: `${kind.slice(0, 3)}-${words(next, 3).replace(/ /g, '-')}-${i}`, type: kind, title: words(next, 7), description: `${words(next, 28)}.`, details: `${words(next, 80)}.`,
    scope: next() < 0.8 ? 'global' : 'project', keywords: words(next, 5).split(' '),
    priority: (['low', 'medium', 'high', 'critical'] as const)[Math.floor(next() * 4)], source: 'manual',
    createdAt: at, updatedAt: at, createdBy: 'Bench <bench@example.com>', enabled: true,
  };
  if (entry.scope === 'project') entry.projectId = 'bench';
  return entry;
}

/**
 * Text as people and agents write it: details of paragraphs with a list and inline code, worked
 * examples (both written as literal blocks), and titles with quotes, colons and numbers (quoted
 * scalars). The line reader takes every such file; before it read literal blocks, every second
 * one went to yaml's parser.
 */
function enrich(next: () => number, entry: Record<string, unknown>): void {
  if (next() < 0.4) {
    entry.details = `${words(next, 30)}.\n\n- ${words(next, 8)} with \`${words(next, 1)}()\`\n- ${words(next, 8)}\n\n${words(next, 25)}: see #${Math.floor(next() * 900) + 100}.`;
  }
  if (next() < 0.15) {
    entry.examples = [{ scenario: words(next, 10), badApproach: `for (;;) {\n  await ${words(next, 1)}();\n}`, goodApproach: `await retry(() => ${words(next, 1)}(), { attempts: 3 });`, outcome: `${words(next, 12)}.` }];
  }
  if (next() < 0.3) entry.title = `Use "${words(next, 2)}" ${Math.floor(next() * 9) + 2} times: ${words(next, 4)}`;
}

/**
 * Writes `count` entries: 50% recommendations, 15% prohibitions (half with globs, a third with
 * content regexes), 35% learnings; `rich`: some with multi-line details, examples and quoted
 * titles (enrich).
 */
export async function generateStore(root: string, count: number, options: { rich?: boolean } = {}): Promise<GeneratedStore> {
  const next = rng(42);
  await initStore(root);
  let prohibitions = 0;
  for (let i = 0; i < count; i++) {
    const roll = next();
    const kind = roll < 0.5 ? 'recommendation' : roll < 0.65 ? 'prohibition' : 'learning';
    const entry = baseEntry(next, kind, i);
    if (options.rich === true) enrich(next, entry);
    if (kind === 'prohibition') {
      prohibitions++;
      if (next() < 0.5) entry.globs = [`src/${WORDS[i % WORDS.length]}/**/*.secret`];
      if (next() < 0.33) entry.content = [`${WORDS[i % WORDS.length]}_token_[0-9a-f]{32}`];
    }
    writeEntry(root, kind, entry);
  }
  commitAll(root, 'bench store');
  return { root, entries: count, prohibitions };
}

/**
 * Writes a store of `count` prohibitions and nothing else, each with its own rules: path globs
 * (about half), path patterns (about a third), content regexes (about 40%), at least one of them.
 */
export async function generateProhibitions(root: string, count: number): Promise<GeneratedStore> {
  const next = rng(7);
  await initStore(root);
  for (let i = 0; i < count; i++) {
    const entry = baseEntry(next, 'prohibition', i);
    const word = WORDS[i % WORDS.length]!;
    const [globs, patterns, content] = [next() < 0.5, next() < 0.33, next() < 0.4];
    if (globs) entry.globs = [`src/${word}/**/*.${['pem', 'key', 'p12', 'secret'][i % 4]}`, `**/${word}-${i}.json`];
    if (patterns) entry.patterns = [`(?:^|/)${word}${i}\\.(?:key|crt|pfx)$`];
    if (content || !(globs || patterns)) entry.content = [`\\b${word}${i}_(?:live|test)_[0-9a-zA-Z]{24}\\b`];
    writeEntry(root, 'prohibition', entry);
  }
  commitAll(root, 'bench prohibitions');
  return { root, entries: count, prohibitions: count };
}

/** Writes `count` source files of 30 lines under src/ and stages them; `hitEvery` lines in N carry a prefilter literal (api_token_) that is not a match. */
export function writeSourceFiles(root: string, count: number, hitEvery: number): void {
  for (let i = 0; i < count; i++) {
    const dir = join(root, 'src', `m${i % 40}`);
    mkdirSync(dir, { recursive: true });
    const lines = Array.from({ length: 30 }, (_, l) => `export const value${l} = compute(${i}, ${l});${(i * 30 + l) % hitEvery === 0 ? ' // api_token_ is not a token here' : ' // ordinary comment'}`);
    writeFileSync(join(dir, `f${i}.ts`), `${lines.join('\n')}\n`);
  }
  execFileSync('git', ['add', '-A', 'src'], { cwd: root });
}
