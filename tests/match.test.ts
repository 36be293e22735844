import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import micromatch from 'micromatch';
import { compileGlob, globProblem, globToRegexSource } from '../src/match/glob.js';
import { compileRegex, regexProblem } from '../src/match/regex.js';

describe('regular expressions from knowledge files', () => {
  it('cannot be made to backtrack catastrophically: (a+)+$ on a long non-matching line returns at once', () => {
    const regex = compileRegex('(a+)+$');
    const line = `${'a'.repeat(100_000)}!`;
    const started = process.hrtime.bigint();
    assert.equal(regex.test(line), false);
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    // A backtracking engine needs longer than the age of the universe here; the bound is generous for a shared machine.
    assert.ok(ms < 5000, `took ${ms} ms`);
  });

  it('finds the first match with its offset', () => {
    assert.deepEqual(compileRegex('AKIA[0-9A-Z]{16}').find('key = "AKIAABCDEFGHIJKLMNOP";'), { index: 7, text: 'AKIAABCDEFGHIJKLMNOP' });
    assert.equal(compileRegex('(?i)password').test('PassWord: x'), true);
    assert.equal(compileRegex('x').find('abc'), undefined);
  });

  it('says why a pattern is refused', () => {
    assert.equal(regexProblem('a+'), undefined);
    assert.equal(regexProblem('(?<=a)b'), 'is not a usable regular expression: invalid named capture: `(?<=a)b` (patterns use RE2 syntax and run in linear time, so back-references and lookaround are not available)');
    assert.match(regexProblem('(unclosed')!, /^is not a usable regular expression: missing closing \)/);
  });
});

describe('globs from knowledge files', () => {
  const globs = ['**/.env', '.env', '*.env', '**/.env.*', 'src/**', 'src/**/*.ts', '**', '*', 'a/**/b', '**/*.{js,ts}', 'src/legacy/auth/**', 'x?z', '[abc].md', 'docs/*.md', '**/secrets.*', 'a/**/b/**/c', '!**/*.md', 'src/{a,b/{c,d}}/*.ts', 'file\\*.txt'];
  const paths = ['.env', 'a/.env', 'a/b/.env', 'x.env', 'a/x.env', '.env.local', 'a/.env.local', 'src', 'src/a.ts', 'src/a/b.ts', 'a/b', 'a/x/b', 'a/x/y/b', 'src/x.js', 'x.js', 'a/b.ts', 'src/legacy/auth/x.ts', 'xyz', 'x/z', 'a.md', 'b.md', 'docs/a.md', 'docs/a/b.md', 'config/secrets.yaml', 'a/b/c', 'a/x/b/y/c', '.github/x.yml', 'src/b/c/x.ts', 'src/b/x.ts', 'file*.txt', 'filex.txt'];

  it('match exactly the paths micromatch matches (dot files included)', () => {
    const mismatches: string[] = [];
    for (const glob of globs) {
      for (const path of paths) {
        const expected = micromatch.isMatch(path, glob, { dot: true });
        if (compileGlob(glob).test(path) !== expected) mismatches.push(`${glob} ${path}: micromatch says ${expected}`);
      }
    }
    assert.deepEqual(mismatches, []);
  });

  it('negate [!...] classes as POSIX shells do', () => {
    assert.equal(compileGlob('[!a]*.md').test('b.md'), true);
    assert.equal(compileGlob('[!a]*.md').test('a.md'), false);
  });

  it('cannot hang on a hostile glob that makes micromatch take seconds', () => {
    const started = process.hrtime.bigint();
    assert.equal(compileGlob('**/a*a*a*a*a*a*a*a*a*a*b').test(`x/${'a'.repeat(5000)}`), false);
    assert.ok(Number(process.hrtime.bigint() - started) / 1e6 < 5000);
  });

  it('translate to anchored RE2 and refuse what they cannot express', () => {
    assert.equal(globToRegexSource('src/**/*.ts'), '^src/(?:.*/)?[^/]*\\.ts$');
    assert.equal(globProblem('src/{a,b'), 'is not a usable glob: unbalanced braces in glob "src/{a,b"');
    assert.equal(globProblem('f{1..3}.txt'), 'is not a usable glob: brace ranges like {1..5} are not supported; list the alternatives: {1,2,3,4,5}');
  });
});
