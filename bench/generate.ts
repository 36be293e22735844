// Generates a realistic store of N knowledge entries (plus the seeded defaults) in a git repository.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { seedDefaults } from '../dist/entities/seed.js';
import { configTemplate } from '../dist/store/config.js';
import { KINDS } from '../dist/store/layout.js';
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

/**
 * Writes `count` entries: 50% recommendations, 15% prohibitions (half with globs, a third with
 * content regexes), 35% learnings; with `prohibitionsOnly`, every entry a prohibition.
 */
export async function generateStore(root: string, count: number, { prohibitionsOnly = false } = {}): Promise<GeneratedStore> {
  const next = rng(42);
  mkdirSync(join(root, '.knowledge'), { recursive: true });
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: root });
  writeFileSync(join(root, '.knowledge/config.yaml'), configTemplate('bench', '# yaml-language-server: $schema=schemas/config.schema.json'));
  await seedDefaults(root);
  const at = '2026-01-01T00:00:00.000Z';
  let prohibitions = 0;
  for (let i = 0; i < count; i++) {
    const roll = next();
    const kind = prohibitionsOnly || (roll >= 0.5 && roll < 0.65) ? 'prohibition' : roll < 0.5 ? 'recommendation' : 'learning';
    const id = `${kind.slice(0, 3)}-${words(next, 3).replace(/ /g, '-')}-${i}`;
    const entry: Record<string, unknown> = {
      id, type: kind, title: words(next, 7), description: `${words(next, 28)}.`, details: `${words(next, 80)}.`,
      scope: next() < 0.8 ? 'global' : 'project', keywords: words(next, 5).split(' '),
      priority: (['low', 'medium', 'high', 'critical'] as const)[Math.floor(next() * 4)], source: 'manual',
      createdAt: at, updatedAt: at, createdBy: 'Bench <bench@example.com>', enabled: true,
    };
    if (entry.scope === 'project') entry.projectId = 'bench';
    if (kind === 'prohibition') {
      prohibitions++;
      if (next() < 0.5) entry.globs = [`src/${WORDS[i % WORDS.length]}/**/*.secret`];
      if (next() < 0.33) entry.content = [`${WORDS[i % WORDS.length]}_token_[0-9a-f]{32}`];
    }
    const dir = join(root, '.knowledge', KINDS[kind].dir);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${id}.yaml`), renderRecord(kind, entry));
  }
  execFileSync('git', ['add', '-A'], { cwd: root });
  execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=b@example.com', 'commit', '-q', '-m', 'bench store'], { cwd: root });
  return { root, entries: count, prohibitions };
}
