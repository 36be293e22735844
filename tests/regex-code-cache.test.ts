// The regex engine loaded with V8's code cache (src/fs/code-cache.ts, what a warm commit hook
// does) matches exactly as the engine loaded plainly: 400 seeded random RE2 patterns, each against
// text made to match it and text that usually does not, compared with re2js required as usual, in
// a process that writes the cache and in one that runs from it.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { prng } from './helpers/glob-fuzz.js';
import { linesFor, randomPattern } from './helpers/pattern-gen.js';
import { tempDir } from './helpers/temp.js';

const REPO = fileURLToPath(new URL('..', import.meta.url));
type Engine = typeof import('re2js');

interface Case {
  pattern: string;
  lines: string[];
}

/** For each case: 'refused' when RE2 refuses the pattern, else where each line first matches (-1: nowhere). */
function results(engine: Engine, cases: readonly Case[]): Array<string | number[]> {
  return cases.map(({ pattern, lines }) => {
    let compiled;
    try {
      compiled = engine.RE2JS.compile(pattern);
    } catch {
      return 'refused';
    }
    return lines.map((line) => {
      const matcher = compiled.matcher(line);
      return matcher.find() ? matcher.start() : -1;
    });
  });
}

const CHILD = `
import { readFileSync } from 'node:fs';
import { requireWithCodeCache } from ${JSON.stringify(join(REPO, 'src/fs/code-cache.ts'))};
const [casesFile, cacheFile] = process.argv.slice(2);
const cases = JSON.parse(readFileSync(casesFile, 'utf8'));
const loaded = requireWithCodeCache('re2js', ${JSON.stringify(join(REPO, 'src/match/regex.ts'))}, cacheFile);
const engine = loaded.exports;
const out = cases.map(({ pattern, lines }) => {
  let compiled;
  try { compiled = engine.RE2JS.compile(pattern); } catch { return 'refused'; }
  return lines.map((line) => { const m = compiled.matcher(line); return m.find() ? m.start() : -1; });
});
await loaded.save();
process.stdout.write(JSON.stringify(out));
`;

describe('the regex engine from its code cache', () => {
  it('matches every seeded pattern and line exactly as re2js loaded plainly, writing the cache and then running from it', (t) => {
    const r = prng(20261124);
    const cases: Case[] = Array.from({ length: 400 }, () => {
      const node = randomPattern(r);
      const other = randomPattern(r);
      return { pattern: node.src, lines: [...linesFor(r, node, 3), ...linesFor(r, other, 2)] };
    });
    const expected = results(createRequire(import.meta.url)('re2js') as Engine, cases);
    const matched = expected.filter((e) => typeof e !== 'string' && e.some((at) => at >= 0)).length;
    assert.ok(matched > 200, `the cases exercise matching (${matched} patterns match a line)`);

    const dir = tempDir(t);
    const casesFile = join(dir, 'cases.json');
    const cacheFile = join(dir, 'regex-engine.code');
    const script = join(dir, 'child.mts');
    writeFileSync(casesFile, JSON.stringify(cases));
    writeFileSync(script, CHILD);
    const run = (): unknown => JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', script, casesFile, cacheFile], { cwd: REPO, encoding: 'utf8' }));

    assert.deepEqual(run(), expected, 'the run that compiles the engine and writes the cache');
    const written = statSync(cacheFile);
    assert.ok(written.size > 1000);
    const bytes = readFileSync(cacheFile);
    assert.deepEqual(run(), expected, 'the run from the cache');
    // A run that found the cache usable leaves it as it was (a rewrite would be a new file).
    assert.equal(statSync(cacheFile).ino, written.ino);
    assert.deepEqual(readFileSync(cacheFile), bytes);
  });
});
