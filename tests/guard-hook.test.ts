import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { crc32Of } from '../src/fs/checksum.js';
import { chmodSync, existsSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { lore, type CliResult } from './helpers/cli.js';
import { envWithLore, gitRun, guardRepo, KEY_HEADER, prohibition, prohibitionPath } from './helpers/guard.js';
import { gitSync, writeFiles } from './helpers/temp.js';

const KEY_RULE = prohibition('pro-key', { content: ['-----BEGIN ([A-Z]+ )?PRIVATE KEY-----'], secret: true });

const head = (repo: string): string => gitSync(repo, ['rev-parse', 'HEAD']).trim();

/** A repository whose staged k.pem holds a private key header, and the hook's first run on it (blocked). */
async function stagedKey(t: TestContext): Promise<{ repo: string; env: NodeJS.ProcessEnv; first: CliResult }> {
  const repo = guardRepo(t, { [prohibitionPath('pro-key')]: KEY_RULE });
  writeFiles(repo, { 'k.pem': `${KEY_HEADER}\n` });
  gitSync(repo, ['add', '-A']);
  const env = envWithLore(t);
  const first = await lore(['hook', 'pre-commit'], { cwd: repo, env });
  assert.equal(first.code, 1);
  assert.match(first.stderr, /\n\nBLOCKED pro-key \[critical\] Title of pro-key\n/);
  return { repo, env, first };
}

describe('the installed pre-commit hook', () => {
  it('blocks git commit -a and git commit <path>, which commit through a temporary index', async (t) => {
    const env = envWithLore(t);
    const repo = guardRepo(t, { [prohibitionPath('pro-key')]: KEY_RULE, 'a.txt': 'a\n', 'b.txt': 'b\n' });
    assert.equal((await lore(['hook', 'install'], { cwd: repo, env })).code, 0);
    const before = head(repo);

    writeFiles(repo, { 'a.txt': `a\n${KEY_HEADER}\n` });
    const all = await gitRun(repo, ['commit', '-a', '-m', 'with -a'], env);
    assert.equal(all.code, 1);
    assert.match(all.stderr, /BLOCKED pro-key \[critical\] Title of pro-key\n {2}a\.txt:2:1: matched "\[redacted: 31 characters\]"/);
    assert.equal(head(repo), before);

    // Nothing is staged; `git commit a.txt` takes the file from the working tree.
    const byPath = await gitRun(repo, ['commit', '-m', 'by path', 'a.txt'], env);
    assert.equal(byPath.code, 1);
    assert.match(byPath.stderr, /lore: scanned the staged change: 1 file, 1 added line/);

    // The reverse: a staged violation that `git commit b.txt` leaves out does not block it.
    gitSync(repo, ['add', 'a.txt']);
    writeFiles(repo, { 'b.txt': 'b\nfine\n' });
    const other = await gitRun(repo, ['commit', '-m', 'only b', 'b.txt'], env);
    assert.equal(other.code, 0, other.stderr);
    assert.match(other.stderr, /^lore: passed: no match for 1 prohibition in 1 file, 1 added line\n$/);
  });

  it('lets LORE_SKIP=1 through, visibly', async (t) => {
    const repo = guardRepo(t, { [prohibitionPath('pro-key')]: KEY_RULE });
    const env = envWithLore(t);
    await lore(['hook', 'install'], { cwd: repo, env });
    writeFiles(repo, { 'k.txt': `${KEY_HEADER}\n` });
    gitSync(repo, ['add', '-A']);
    const skipped = await gitRun(repo, ['commit', '-m', 'skip'], envWithLore(t, { LORE_SKIP: '1' }));
    assert.deepEqual([skipped.code, skipped.stderr], [0, 'lore: LORE_SKIP=1: the pre-commit check was skipped\n']);
  });

  it('prints a clean pass whole when stderr is not a terminal (a CI log), whatever COLUMNS says', async (t) => {
    const repo = guardRepo(t, { [prohibitionPath('pro-key')]: KEY_RULE });
    writeFiles(repo, { 'notes.txt': 'nothing secret here\n' });
    gitSync(repo, ['add', '-A']);
    const passed = await lore(['hook', 'pre-commit'], { cwd: repo, env: envWithLore(t, { COLUMNS: '30' }) });
    assert.deepEqual([passed.code, passed.stderr], [0, 'lore: passed: no match for 1 prohibition in 1 file, 1 added line\n']);
  });

  it('chains an existing hook instead of overwriting it, and uninstall restores it', async (t) => {
    const repo = guardRepo(t, { [prohibitionPath('pro-key')]: KEY_RULE });
    const env = envWithLore(t);
    const hook = join(repo, '.git/hooks/pre-commit');
    const original = '#!/bin/sh\necho "existing hook ran" >&2\n[ -f block-me ] && exit 3\nexit 0\n';
    writeFileSync(hook, original);
    chmodSync(hook, 0o755);
    const install = await lore(['hook', 'install'], { cwd: repo, env });
    assert.equal(install.stdout, `installed lore's pre-commit hook in ${hook} (the existing hook now runs first, from ${hook}.lore-chained)\n`);
    assert.equal((await lore(['hook', 'install'], { cwd: repo, env })).stdout, `lore's pre-commit hook is already installed in ${hook}\n`);
    const asJson = await lore(['hook', 'install', '--json'], { cwd: repo, env });
    assert.deepEqual([asJson.code, JSON.parse(asJson.stdout)], [0, { file: hook, style: 'hooks', tracked: false, status: 'already-installed' }]);

    writeFiles(repo, { 'ok.txt': 'fine\n' });
    gitSync(repo, ['add', '-A']);
    const ok = await gitRun(repo, ['commit', '-m', 'ok'], env);
    assert.equal(ok.code, 0);
    assert.equal(ok.stderr, 'existing hook ran\nlore: passed: no match for 1 prohibition in 1 file, 1 added line\n');
    writeFiles(repo, { 'block-me': 'x\n' });
    gitSync(repo, ['add', '-A']);
    const before = head(repo);
    const refused = await gitRun(repo, ['commit', '-m', 'chained says no'], env);
    // git exits 1 whatever the hook's code; the chained hook stopped it before lore ran.
    assert.deepEqual([refused.code, refused.stderr, head(repo)], [1, 'existing hook ran\n', before]);

    const uninstall = await lore(['hook', 'uninstall'], { cwd: repo, env });
    assert.equal(uninstall.stdout, `removed lore's pre-commit hook from ${hook}; the previous hook is back\n`);
    assert.equal(readFileSync(hook, 'utf8'), original);
    assert.equal(existsSync(`${hook}.lore-chained`), false);
  });

  it('keeps its rules in a snapshot keyed by both sides, and rebuilds one edited by hand', async (t) => {
    const { repo, env, first } = await stagedKey(t);
    const path = join(repo, '.knowledge/.cache/guard-rules.json');
    const saved = readFileSync(path, 'utf8');
    // "<key (sha1)> <CRC-32 of the body>\n<sides, rule table and the rules' files>\n<the rules' versions>"
    const lines = saved.split('\n');
    assert.match(lines[0]!, /^[0-9a-f]{40} [0-9a-f]{8}$/);
    assert.match(lines[1]!, /^\{"sides":\[.*,"table":\{"origin":\[2\],"where":\[null\],"paths":\{"rule":\[\],"kind":"","text":\[\],"literal":\[\],"ignoreCase":\[\]\},"content":\{"rule":\[0\],"kind":"c","text":\[.+\],"literal":\[.+\],"ignoreCase":\[[01]\]\}\},"files":\["\.knowledge\/knowledge\/prohibitions\/pro-key\.yaml"\]\}$/);
    assert.match(lines[2]!, /^\[\{"entry":\{"id":"pro-key",/);
    assert.equal(lines.length, 3);
    // The rule's matcher taken out of the table, the checksum left as it was: not the file lore wrote.
    writeFileSync(path, saved.replace(/"content":\{"rule":\[0\],"kind":"c",[^}]*\}/, '"content":{"rule":[],"kind":"","text":[],"literal":[],"ignoreCase":[]}'));
    assert.notEqual(readFileSync(path, 'utf8'), saved);
    const edited = await lore(['hook', 'pre-commit'], { cwd: repo, env });
    assert.deepEqual([edited.code, edited.stderr], [1, first.stderr]);
    assert.equal(readFileSync(path, 'utf8'), saved);
    // The content automaton with its transitions zeroed (it would find no literal), sizes intact:
    // the checksum says it is not the file lore wrote, so it is rebuilt.
    const automaton = join(repo, '.knowledge/.cache/guard-literals-content.bin');
    const bytes = readFileSync(automaton);
    // A header of 84 bytes (the automaton after it starts at a multiple of four), a header of six
    // int32s, the class table, then two bytes per transition.
    assert.match(bytes.toString('latin1', 0, 84), /^[0-9a-f]{40} [0-9a-f]{8} {34}\n$/);
    const [classes, states] = [bytes.readInt32LE(84 + 4), bytes.readInt32LE(84 + 8)];
    const table = 84 + 24 + 65536;
    writeFileSync(automaton, Buffer.concat([bytes.subarray(0, table), Buffer.alloc(classes * states * 2), bytes.subarray(table + classes * states * 2)]));
    const damaged = await lore(['hook', 'pre-commit'], { cwd: repo, env });
    assert.deepEqual([damaged.code, damaged.stderr], [1, first.stderr]);
    assert.deepEqual(readFileSync(automaton), bytes);
    // A staged change to a rule file is another key: the snapshot follows the index.
    writeFiles(repo, { [prohibitionPath('pro-key')]: prohibition('pro-key', { content: ['NEVER_IN_THIS_FILE'], secret: true }) });
    gitSync(repo, ['add', '-A']);
    const changed = await lore(['hook', 'pre-commit'], { cwd: repo, env });
    assert.equal(changed.code, 1);
    assert.notEqual(readFileSync(path, 'utf8').split('\n')[0], saved.split('\n')[0]);
  });

  it('applies each rule where and when it applies, read anew and from its snapshot alike', async (t) => {
    // Every rule's literal is in the change; the automaton holds them all, and only the rules
    // that apply (enabled, in their window, for project demo and no role) may find anything.
    const rules = {
      'pro-open-end': { validFrom: '2020-01-01', content: ['TOKEN_A[0-9]{4}'] },
      'pro-expired': { validUntil: '2020-01-01', content: ['TOKEN_B[0-9]{4}'] },
      'pro-future': { validFrom: '2999-01-01', content: ['TOKEN_C[0-9]{4}'] },
      'pro-window': { validFrom: '2020-01-01T00:00:00Z', validUntil: '2999-12-31', content: ['TOKEN_D[0-9]{4}'] },
      'pro-disabled': { enabled: false, content: ['TOKEN_E[0-9]{4}'] },
      'pro-other-project': { scope: 'project', projectId: 'other', content: ['SHARED_[0-9]{4}'], globs: ['**/*.secret'] },
      'pro-this-project': { scope: 'project', projectId: 'demo', content: ['SHARED_[0-9]{4}'] },
      'pro-agent': { scope: 'agent_type', agentTypes: ['player'], content: ['TOKEN_H[0-9]{4}'] },
    };
    const repo = guardRepo(t, Object.fromEntries(Object.entries(rules).map(([id, fields]) => [prohibitionPath(id), prohibition(id, fields)])));
    writeFiles(repo, { 'notes.txt': `${['A', 'B', 'C', 'D', 'E', 'H'].map((c) => `TOKEN_${c}1234`).join('\n')}\nSHARED_1234\n`, 'x.secret': 'x\n' });
    gitSync(repo, ['add', '-A']);
    const env = envWithLore(t);
    const read = await lore(['hook', 'pre-commit', '--verbose'], { cwd: repo, env });
    const snapshot = join(repo, '.knowledge/.cache/guard-rules.json');
    const inode = statSync(snapshot).ino;
    const warm = await lore(['hook', 'pre-commit', '--verbose'], { cwd: repo, env });
    // The warm run read the snapshot and wrote nothing (a write replaces the file: a new inode).
    assert.equal(statSync(snapshot).ino, inode);
    for (const run of [read, warm]) {
      assert.equal(run.code, 1);
      assert.deepEqual([...run.stderr.matchAll(/^BLOCKED (\S+) .*\n.*$/gm)].map((m) => m[0].replace(/ \[critical\] Title of \S+/, '')), [
        'BLOCKED pro-open-end\n  notes.txt:1:1: matched "TOKEN_A1234" (TOKEN_A[0-9]{4})',
        'BLOCKED pro-window\n  notes.txt:4:1: matched "TOKEN_D1234" (TOKEN_D[0-9]{4})',
        'BLOCKED pro-this-project\n  notes.txt:7:1: matched "SHARED_1234" (SHARED_[0-9]{4})',
      ]);
      assert.match(run.stderr, / against 3\s+prohibitions \(0 from the change itself\)/);
    }
    assert.equal(warm.stderr, read.stderr);
  });

  it("keeps the regex engine's compiled code in .git/lore/, uses it, and compiles anew over a damaged one: the secret is still blocked", async (t) => {
    const { repo, env, first } = await stagedKey(t);
    const file = join(repo, '.git/lore/regex-engine.code');
    // "<node>/<arch>/<platform>/<path's CRC-32>/<length>/<code's CRC-32> <body's CRC-32>\n<body>" (fs/code-cache.ts)
    const intact = (): boolean => {
      const bytes = readFileSync(file);
      const end = bytes.indexOf(0x0a);
      const header = /^v[\d.]+\/\w+\/\w+\/[0-9a-f]{8}\/\d+\/[0-9a-f]{8} ([0-9a-f]{8})$/.exec(bytes.toString('latin1', 0, end));
      return header !== null && Number.parseInt(header[1]!, 16) === crc32Of(bytes.subarray(end + 1));
    };
    assert.equal(intact(), true);
    assert.deepEqual(readdirSync(join(repo, '.knowledge/.cache')).filter((name) => name.includes('engine')), []);
    // A usable cache is read, not written again (a write replaces the file: a new inode).
    const inode = statSync(file).ino;
    const again = await lore(['hook', 'pre-commit'], { cwd: repo, env });
    assert.deepEqual([again.code, again.stderr, statSync(file).ino], [1, first.stderr, inode]);
    const saved = readFileSync(file);
    const head = saved.indexOf(0x0a) + 1;
    const damages: Array<[string, Buffer]> = [
      ['cut in half', saved.subarray(0, saved.length >> 1)],
      // V8 checks no checksum of a code cache in release builds: it would run these bytes.
      ['one byte of its code flipped under an intact header', Buffer.concat([saved.subarray(0, head), Buffer.from(saved.subarray(head).map((b, i) => (i === 1000 ? b ^ 0xff : b)))])],
      ['its code zeroed under an intact header', Buffer.concat([saved.subarray(0, head), Buffer.alloc(saved.length - head)])],
      ['its code from another file under its header', Buffer.concat([saved.subarray(0, head), readFileSync(join(repo, '.knowledge/.cache/guard-literals-content.bin'))])],
      ['emptied', Buffer.alloc(0)],
    ];
    for (const [how, bytes] of damages) {
      writeFileSync(file, bytes);
      const run = await lore(['hook', 'pre-commit'], { cwd: repo, env });
      assert.deepEqual([run.code, run.stderr], [1, first.stderr], how);
      assert.equal(intact(), true, `${how}: written again`);
    }
  });

  it('still blocks a staged secret when its snapshot or automata are truncated, emptied or garbage, and writes them again', async (t) => {
    const { repo, env, first } = await stagedKey(t);
    const cache = join(repo, '.knowledge/.cache');
    const files = ['guard-rules.json', 'guard-literals-content.bin', 'guard-literals-paths.bin'];
    const saved = new Map(files.map((name) => [name, readFileSync(join(cache, name))]));
    const damages: Array<[string, (bytes: Buffer) => Buffer]> = [
      ['cut in half', (bytes) => bytes.subarray(0, bytes.length >> 1)],
      ['cut to its header', (bytes) => bytes.subarray(0, 82)],
      ['emptied', () => Buffer.alloc(0)],
      ['garbage of the same length', (bytes) => Buffer.alloc(bytes.length, 0x7b)],
      ['one byte short', (bytes) => bytes.subarray(0, bytes.length - 1)],
    ];
    for (const name of files) {
      for (const [how, damage] of damages) {
        writeFileSync(join(cache, name), damage(saved.get(name)!));
        const run = await lore(['hook', 'pre-commit'], { cwd: repo, env });
        assert.deepEqual([run.code, run.stderr], [1, first.stderr], `${name} ${how}`);
        assert.deepEqual(readFileSync(join(cache, name)), saved.get(name), `${name} ${how}: written again`);
      }
    }
  });

  it('checks as usual when .knowledge/.cache is a loop of links, which it neither follows nor trips over', async (t) => {
    const repo = guardRepo(t, { [prohibitionPath('pro-key')]: KEY_RULE });
    symlinkSync('.cache', join(repo, '.knowledge', '.cache'));
    writeFiles(repo, { 'k.pem': `${KEY_HEADER}\n` });
    gitSync(repo, ['add', 'k.pem']);
    const run = await lore(['hook', 'pre-commit'], { cwd: repo, env: envWithLore(t) });
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stderr, /\n\nBLOCKED pro-key \[critical\] Title of pro-key\n/);
    assert.doesNotMatch(run.stderr, /ELOOP|\n    at /);
  });

  it('lists no rule file when warm and the change names none: HEAD\'s tree ids key the snapshot', async (t) => {
    const repo = guardRepo(t, { [prohibitionPath('pro-key')]: KEY_RULE, [prohibitionPath('pro-other')]: prohibition('pro-other', { content: ['NEVER_THERE_[0-9]+'] }) });
    writeFiles(repo, { 'k.pem': `${KEY_HEADER}\n` });
    gitSync(repo, ['add', '-A']);
    const env = envWithLore(t);
    const trace = join(repo, '.git', 'trace.txt');
    const commands = async (): Promise<string[]> => {
      writeFileSync(trace, '');
      const run = await lore(['hook', 'pre-commit'], { cwd: repo, env: { ...env, GIT_TRACE: trace } });
      assert.equal(run.code, 1);
      assert.match(run.stderr, /\n\nBLOCKED pro-key \[critical\] Title of pro-key\n/);
      return [...readFileSync(trace, 'utf8').matchAll(/trace: built-in: git (\S+(?: -r)?)/g)].map((m) => m[1]!).sort();
    };
    // Cold: the rule files of both sides are listed (ls-tree -r, ls-files, a rev-parse for HEAD) and
    // parsed (a cat-file).
    const cold = ['cat-file', 'cat-file', 'config', 'diff-index', 'ls-files', 'ls-tree -r', 'rev-parse', 'rev-parse'];
    assert.deepEqual(await commands(), cold);
    // Warm, four git processes: the diff; the blobs with HEAD's rule trees and turn logs folder (one
    // cat-file); the top level with the branch; the role guard's config. No listing of rule files,
    // and the blocked line's text is the staged blob already read.
    assert.deepEqual(await commands(), ['cat-file', 'config', 'diff-index', 'rev-parse']);
    // A staged deletion of a rule file is not scanned but changes the index's rules: listed again.
    gitSync(repo, ['rm', '-q', '--cached', prohibitionPath('pro-other')]);
    const before = readFileSync(join(repo, '.knowledge/.cache/guard-rules.json'), 'utf8').split('\n')[0];
    assert.deepEqual(await commands(), cold.filter((c, i) => c !== 'cat-file' || i > 0));
    assert.notEqual(readFileSync(join(repo, '.knowledge/.cache/guard-rules.json'), 'utf8').split('\n')[0], before);
  });

  it('loads neither the YAML parser nor the schema validator when its cache is warm', async (t) => {
    const repo = guardRepo(t, { [prohibitionPath('pro-key')]: KEY_RULE });
    writeFiles(repo, { 'a.txt': 'x\n' });
    gitSync(repo, ['add', '-A']);
    const trace = join(repo, '.git', 'trace.mjs');
    writeFileSync(trace, "import { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\nprocess.on('exit', () => process.stderr.write('LOADED ' + Object.keys(require.cache).filter((k) => /node_modules\\/(yaml|ajv|re2js)\\/(?!dist\\/runtime\\/)/.test(k)).map((k) => k.split('node_modules/')[1].split('/')[0]).filter((v, i, a) => a.indexOf(v) === i).sort().join(',') + '\\n'));\n");
    const run = (): Promise<{ stderr: string }> => new Promise((resolve) => {
      execFile(process.execPath, ['--import', trace, join(import.meta.dirname, '../bin/lore.js'), 'hook', 'pre-commit'], { cwd: repo, env: envWithLore(t) }, (_e, _o, stderr) => resolve({ stderr }));
    });
    // Cold, the staged rule is parsed, and checked by the validator npm run build generated (not ajv).
    const cold = await run();
    assert.match(cold.stderr, /LOADED re2js,yaml\n$/);
    const warm = await run();
    assert.match(warm.stderr, /LOADED \n$/);
  });

  it('never loads the word vectors, the entry vectors, the vector kernel, semantic matching or duplicates, cold or warm', async (t) => {
    const repo = guardRepo(t, { [prohibitionPath('pro-key')]: KEY_RULE });
    writeFiles(repo, { 'a.txt': `x\n${KEY_HEADER}\n` });
    gitSync(repo, ['add', '-A']);
    // A loader hook (it runs in the loader's thread) writes down every module the process loads.
    const modules = join(repo, '.git', 'modules.log');
    const hook = `import { appendFileSync } from 'node:fs'; export async function load(url, context, next) { appendFileSync(${JSON.stringify(modules)}, url + '\\n'); return next(url, context); }`;
    const trace = join(repo, '.git', 'trace.mjs');
    writeFileSync(trace, `import { register } from 'node:module';\nregister(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)});\n`);
    const loaded = async (args: string[], script = [join(import.meta.dirname, '../bin/lore.js')]): Promise<string[]> => {
      writeFileSync(modules, '');
      await new Promise((resolve) => execFile(process.execPath, ['--import', trace, ...script, ...args], { cwd: repo, env: envWithLore(t) }, resolve));
      return readFileSync(modules, 'utf8').split('\n').filter((url) => url.includes('/dist/')).map((url) => url.split('/dist/')[1]!);
    };
    const semantic = (urls: string[]): string[] => urls.filter((url) => /^knowledge\/(word-vectors|entry-vectors|vector-scan|semantic|duplicates)\.js$/.test(url));
    for (const run of ['cold', 'warm']) {
      const urls = await loaded(['hook', 'pre-commit']);
      assert.ok(urls.includes('guard/_evaluate.js'), `${run}: the trace sees the hook's modules`);
      assert.deepEqual(semantic(urls), [], run);
    }
    // The same trace sees them where they belong: a query, run by the modules (bin/lore.js runs it bundled, which the trace does not see).
    const modulesCli = ['--input-type=module', '-e', `const { main } = await import(${JSON.stringify(join(import.meta.dirname, '../dist/cli/main.js'))}); await main(process.argv.slice(1));`];
    assert.deepEqual(semantic(await loaded(['query', 'rotate the keys'], modulesCli)).sort(), ['knowledge/entry-vectors.js', 'knowledge/semantic.js', 'knowledge/vector-scan.js', 'knowledge/word-vectors.js']);
  });
});
