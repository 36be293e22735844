import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import micromatch from 'micromatch';
import { compileGlob, globProblem, globToRegexSource, lazyGlobTest } from '../src/match/glob.js';
import { compileRegex, regexProblem } from '../src/match/regex.js';
import { generateGlob, generatePaths, prng } from './helpers/glob-fuzz.js';

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

  it('refuses a pattern whose program is over 1,000 instructions: linear time, but a factor that would hold a commit for hours', () => {
    const huge = '(?i)(?:a|b){1000}(?:a|b){1000}(?:a|b){1000}(?:a|b){1000}Z';
    assert.equal(regexProblem(huge), 'is not a usable regular expression: it compiles to 4003 instructions, over the 1000 lore runs (its time grows with the text times the pattern\'s size): write it shorter, with fewer or smaller repetitions');
    assert.throws(() => compileRegex(huge), /compiles to 4003 instructions/);
    // At the edge: .{998} is 1,000 instructions, .{999} one more.
    assert.equal(regexProblem('.{998}'), undefined);
    assert.match(regexProblem('.{999}')!, /compiles to 1001 instructions/);
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

  // The differential test. Globs and paths come from a seeded PRNG (GLOB_FUZZ_SEED picks another
  // seed; a failure names its seed, so it reproduces). Paths are paths as git stores them: no
  // empty, `.` or `..` segment, no leading or trailing `/`, no backslash. micromatch's `**` and
  // lookaheads use `.`, which stops at a newline, where lore's segments take a newline like any
  // other character (the one documented difference, tested below): so micromatch is asked with
  // each newline, in glob and path alike, replaced by U+0001, which the generator never produces.
  const SEED = Number(process.env.GLOB_FUZZ_SEED ?? 11);
  const NEWLINE_STAND_IN = '\u0001';

  it(`match a path with a backslash wherever micromatch does, on generated pairs, and also with the backslash read as / (seed ${SEED})`, () => {
    const random = prng(SEED + 1);
    const misses: string[] = [];
    let pairs = 0;
    let matched = 0;
    while (pairs < 3_000) {
      const glob = generateGlob(random);
      if (glob.startsWith('!') || glob.includes('\n') || globProblem(glob) !== undefined) continue;
      const ours = compileGlob(glob);
      const lazy = lazyGlobTest(glob);
      const theirs = micromatch.matcher(glob, { dot: true });
      for (const generated of generatePaths(random, glob, 4)) {
        if (generated.includes('\n')) continue;
        // A backslash in place of a separator, or inside a name: as git records a file so named on Linux.
        const at = Math.floor(random() * (generated.length + 1));
        const path = generated.includes('/') && random() < 0.5 ? generated.replace('/', '\\') : `${generated.slice(0, at)}\\${generated.slice(at)}`;
        pairs++;
        if (!theirs(path)) continue;
        matched++;
        if (!ours.test(path) || !lazy(path)) misses.push(`glob ${JSON.stringify(glob)}, path ${JSON.stringify(path)}: micromatch matches, lore does not`);
      }
    }
    assert.deepEqual(misses.slice(0, 20), [], `${misses.length} of ${matched} pairs micromatch matches, lore misses`);
    assert.ok(matched >= 300, `micromatch matched only ${matched} of ${pairs} pairs`);
    // The adversarial pass's case, and the other reading.
    assert.equal(compileGlob('*.key').test('a\\x.key'), true);
    assert.equal(compileGlob('src/*.key').test('src\\x.key'), true);
    assert.equal(compileGlob('!*.key').test('a\\x.key'), true, 'a negated glob excludes only a path both readings match');
  });

  it(`agree with micromatch on at least 10,000 generated glob/path pairs, refusing what they cannot match exactly (seed ${SEED})`, () => {
    const random = prng(SEED);
    const differences: string[] = [];
    let generated = 0;
    let accepted = 0;
    let pairs = 0;
    let matched = 0;
    const covered = new Map<string, number>();
    const features: Array<[string, (glob: string) => boolean]> = [
      ['**', (g) => g.includes('**')], ['{', (g) => g.includes('{')], [',', (g) => /\{[^}]*,/.test(g)], ['[', (g) => /\[[^\]]+\]/.test(g)], ['[^', (g) => g.includes('[^')],
      ['a-z range', (g) => /\[[^\]]*[^\\]-[^\]]/.test(g)], ['\\', (g) => g.includes('\\')], ['?', (g) => g.includes('?')], ['!', (g) => g.startsWith('!')],
      ['é', (g) => /[éü]/.test(g)], ['😀', (g) => g.includes('😀')], ['newline', (g) => g.includes('\n')], ['space', (g) => g.includes(' ')], ['.', (g) => g.includes('.')],
    ];
    while (pairs < 10_000) {
      const glob = generateGlob(random);
      const candidates = generatePaths(random, glob, 6);
      generated++;
      assert.ok(!glob.includes(NEWLINE_STAND_IN) && !candidates.some((p) => p.includes(NEWLINE_STAND_IN)), 'the generator produced the newline stand-in');
      // lazyGlobTest first: globProblem compiles the glob into the cache lazyGlobTest would take it from.
      let lazy: ((path: string) => boolean) | undefined;
      try {
        lazy = lazyGlobTest(glob);
      } catch {
        lazy = undefined;
      }
      if (globProblem(glob) !== undefined) continue;
      assert.ok(lazy !== undefined, `lazyGlobTest refused ${JSON.stringify(glob)}, which compiles`);
      accepted++;
      for (const [name, has] of features) if (has(glob)) covered.set(name, (covered.get(name) ?? 0) + 1);
      const ours = compileGlob(glob);
      const theirs = micromatch.matcher(glob.replaceAll('\n', NEWLINE_STAND_IN), { dot: true });
      for (const path of candidates) {
        pairs++;
        const expected = theirs(path.replaceAll('\n', NEWLINE_STAND_IN));
        const actual = ours.test(path);
        if (expected) matched++;
        if (actual !== expected) differences.push(`glob ${JSON.stringify(glob)}, path ${JSON.stringify(path)}: micromatch ${expected}, lore ${actual}`);
        if (lazy(path) !== expected) differences.push(`glob ${JSON.stringify(glob)}, path ${JSON.stringify(path)}: micromatch ${expected}, lore's lazy test ${!expected}`);
      }
    }
    assert.deepEqual(differences.slice(0, 20), [], `${differences.length} of ${pairs} pairs differ (seed ${SEED})`);
    // Refusing everything, or generating only what never matches, must not pass.
    assert.ok(accepted / generated >= 0.6, `only ${accepted} of ${generated} generated globs were accepted`);
    assert.ok(matched / pairs >= 0.3 && matched / pairs <= 0.7, `micromatch matched ${matched} of ${pairs} pairs`);
    assert.deepEqual(features.map(([name]) => name).filter((name) => (covered.get(name) ?? 0) < 50), [], 'constructs too rare among accepted globs');
  });

  it('agree with micromatch where its own shortcuts make it hard: UTF-16 halves, literal classes, fast paths, ** next to *', () => {
    // [glob, path, micromatch's answer]: lore must give the same, and micromatch must still give it.
    const cases: Array<[string, string, boolean]> = [
      ['?', '😀', false], ['??', '😀', true], ['[é-\uffff][é-\uffff]', '😀', true], ['[^a][^a]', '😀', true], ['a?b', 'a😀b', false], ['*', '😀', true],
      ['[ab]', '[ab]', true], ['[ab]', 'b', true], ['x[a-b]', 'x[a-b]', true], ['x[a-b]', 'xb', true], ['[a-b]', '[a-b]', true],
      ['{a,b}', '{a,b}', true], ['{a,b}', 'b', true], ['!a', '!a', true], ['!a', 'a', false], ['!a', 'b', true],
      ['*.*', 'a.', false], ['*.*', 'a.b', true], ['a*.*', 'ab.', true], ['**/*.*', 'x/a.', false], ['./*.*', 'a.', false], ['!*.*', 'a.', false],
      ['a/**/*', 'a', false], ['a/**/*', 'a/b', true], ['a/**/{,b}', 'a', true], ['a/**', 'a', true], ['*/**', 'x', false], ['*/**', 'x/y', true],
      ['a*/**', 'ab', false], ['{a,b}/**', 'a', true], ['a/**/b', 'a/b', true], ['a/**/b', 'a/x/y/b', true], ['**/b', 'b', true],
      ['./!a', 'b', true], ['./!a', 'a', false], ['!./a', 'a', false], ['././a', 'a', true], ['././!a', '!a', true],
      ['[]a]', ']', true], ['[^]a]', 'b', true], ['[^]a]', ']', false], ['[a-]', '-', true], ['[\\!a]', '!', true], ['x[^a]y', 'x/y', false],
      ['{,a}b', 'b', true], ['\\{a\\}', '{a}', true], ['\\{a,b\\}', 'a', false], ['a\\*b', 'a*b', true], ['a\\*b', 'axb', false], ['\\.env', '.env', true], ['a,b', 'a,b', true], ['a}', 'a}', true],
      ['{a/**/b,c}', 'a/b', true], ['x/{a,b/**/c}', 'x/b/c', true], ['**/.env', '.env', true], ['**', '.a/.b', true], ['a$', 'a$', true], ['a+b', 'a+b', true], ['a^b', 'a^b', true], ['$\\$', '$$', true],
    ];
    const wrong = cases.filter(([glob, path, expected]) => compileGlob(glob).test(path) !== expected || micromatch.isMatch(path, glob, { dot: true }) !== expected);
    assert.deepEqual(wrong, []);
  });

  it('match a newline like any other character of a segment, where micromatch stops at it', () => {
    // [glob, path, lore, micromatch]
    const cases: Array<[string, string, boolean, boolean]> = [
      ['**/.env', 'a\nb/.env', true, false], ['*', 'a\nb', true, true], ['*', '\nb', true, false], ['?', '\n', true, true], ['a?b', 'a\nb', true, true],
      ['[^x]', '\n', true, true], ['[\n]', '\n', true, true], ['a/**', 'a/\n/b', true, false], ['**', 'a\nb/c', true, false], ['*.md', '\n.md', true, false],
      ['!*.md', 'a\nb', true, false], ['!*.md', 'a\nb.md', false, false], ['*', 'a\nb/c', false, false], ['{a,\n}', '\n', true, true],
    ];
    assert.deepEqual(cases.map(([glob, path]) => [glob, path, compileGlob(glob).test(path), micromatch.isMatch(path, glob, { dot: true })]), cases);
  });

  it('refuse [!...], which micromatch reads as a set holding !, and negate with [^...] as micromatch does', () => {
    assert.equal(micromatch.isMatch('b.md', '[!a]*.md', { dot: true }), false);
    assert.equal(globProblem('[!a]*.md'), 'is not a usable glob: [!...] is ambiguous (micromatch reads ! as a character, POSIX shells negate): write [^...] to negate, or [\\!...] to match !');
    assert.deepEqual(['b.md', 'a.md', '!.md', 'x/.md'].map((path) => [compileGlob('[^a]*.md').test(path), micromatch.isMatch(path, '[^a]*.md', { dot: true })]), [[true, true], [false, false], [true, true], [false, false]]);
  });

  it('refuse what micromatch reads differently from how it looks, or what can never match a path, saying what to write instead', () => {
    const cases: Array<[string, string]> = [
      ['*.+(js|ts)', 'extglob +(js|ts) is not supported: write {a,b} for one of several alternatives, * or ** to repeat, or \\( for a literal ('],
      ['**/@(secrets|keys).json', 'extglob @(secrets|keys) is not supported: write {secrets,keys} instead'],
      ['!(*.md)', 'extglob !(*.md) is not supported: a leading ! negates a whole glob (!**/*.md); write that, or list what to match'],
      ['?(x)', 'extglob ?(x) is not supported: write {,x} instead'],
      ['*(x)', 'extglob *(x) is not supported: write {a,b} for one of several alternatives, * or ** to repeat, or \\( for a literal ('],
      ['[[:alpha:]]*', 'POSIX class [:alpha:] is not supported: write [a-zA-Z] instead'],
      ['[[:punct:]]', 'POSIX class [:punct:] is not supported: list the characters or a range instead'],
      ['[a[b]', 'a class cannot contain [ (micromatch reads [: as the start of a POSIX class): write \\[ outside a class for a literal ['],
      ['a(b', '( is special in micromatch (it becomes regex syntax): write \\( for a literal ('],
      ['a|b', '| is special in micromatch (it becomes regex syntax): write \\| for a literal |'],
      ['"a"', '" quotes text in micromatch: write \\" for a literal "'],
      ['a**', '** must be a whole path segment (**/x, a/**/b, x/**), not next to other characters or to { , }: write * to match within a segment'],
      ['{**/a,b}', '** must be a whole path segment (**/x, a/**/b, x/**), not next to other characters or to { , }: write * to match within a segment'],
      ['a/***', '*** is read as * by micromatch: write * (within a segment) or ** (any number of segments)'],
      ['x{a\\é}', '{...} without a comma is literal text in micromatch, which does not always keep the text inside: write \\{ and \\} for literal braces, or list alternatives with commas'],
      ['f{1..3}.txt', '.. inside braces is a range in micromatch ({1..5}), which lore does not support: list the alternatives, as in {1,2,3,4,5}'],
      ['{a.*,b}', '.* inside braces does not match names ending in . in micromatch: put .* outside the braces, or write two globs'],
      ['src/{a,b', 'a { is not closed: write \\{ for a literal {'],
      ['a$$', '$$ is read as regex syntax by micromatch: write $\\$'],
      ['[ab]+', '+ right after [ ] { or } repeats in micromatch: write \\+ for a literal +'],
      ['a\\d', '\\d has no glob meaning (micromatch reads it as a regex escape): write d'],
      ['[\\w]', '\\w in a class has no glob meaning (micromatch reads it as a regex escape): write w for the character, or a range'],
      ['a\\\\b', 'a glob cannot match a backslash (lore reads \\ in paths as /)'],
      ['a\\', 'it ends with a lone \\: a glob cannot match a backslash (lore reads \\ in paths as /)'],
      ['a\\/b', '\\/ escapes a path separator: write /'],
      ['a[\\]', 'the class at character 2 is not closed: write \\[ for a literal ['],
      ['a[x/]b', 'a class cannot match / (a path separator): remove / from the class'],
      ['[ -~]', 'the range " -~" includes / (a path separator): write " -.0-~" instead'],
      ['[z-a]', 'the range "z-a" is reversed: write "a-z"'],
      ['[😀x]', 'a class cannot contain 😀 (micromatch matches characters outside the Basic Multilingual Plane by halves): write {😀,...} instead'],
      ['!!a', 'it is negated more than once: write a single leading ! (or none)'],
      ['!', 'it negates nothing: write the glob after the !'],
      ['', 'it is empty'],
      ['/src/**', 'it starts with /, but paths are relative to the repository root: write src/**'],
      ['node_modules/', 'it ends with /, and no path does: write node_modules/** to match everything under it'],
      ['a//b', 'it has an empty segment (//): write /'],
      ['../x', 'it has a .. segment, and no path git stores has one'],
      ['a\u0000', 'it contains a NUL character'],
      ['a\ud800', 'it contains a lone surrogate (not valid text)'],
      ['a'.repeat(1001), 'it is longer than 1000 characters'],
    ];
    assert.deepEqual(cases.map(([glob]) => [glob, globProblem(glob)?.replace(/^is not a usable glob: /, '')]), cases);
    assert.throws(() => compileGlob('*.+(js|ts)'), { message: 'extglob +(js|ts) is not supported: write {a,b} for one of several alternatives, * or ** to repeat, or \\( for a literal (' });
  });

  it('cannot hang on a hostile glob that makes micromatch take seconds', () => {
    const started = process.hrtime.bigint();
    assert.equal(compileGlob('**/a*a*a*a*a*a*a*a*a*a*b').test(`x/${'a'.repeat(5000)}`), false);
    assert.ok(Number(process.hrtime.bigint() - started) / 1e6 < 5000);
  });

  it('translate to anchored RE2', () => {
    assert.deepEqual(['src/**/*.ts', '**/.env', 'a/**', '*.{js,ts}', '[ab]x', '!x/*'].map(globToRegexSource), [
      '^src(?s:/.*/|/)[^/]*\\.ts$',
      '^(?s:(?:.*/)?)\\.env$',
      '^a(?s:(?:/.*)?)$',
      '^[^/]*\\.(?:js|ts)$',
      '^(?:\\[ab\\]|[\\x{61}\\x{62}])x$',
      '^x/[^/]*$',
    ]);
  });
});
