// The terminal: progress on long work (on a real pseudo-terminal through util-linux `script`),
// output fitted to the width (CJK and emoji measured), shell completion run in the real shells.
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { displayWidth, loadWidthLibrary, needsWidthLibrary, truncateDisplay, wrapLine } from '../src/cli/_width.js';
import { seeded } from './helpers/crash.js';
import { LORE_BIN, lore } from './helpers/cli.js';
import { guardRepo, prohibition, prohibitionPath } from './helpers/guard.js';
import { entry, entryFiles } from './helpers/knowledge.js';
import { gitSync, repoFixture, tempDir, testEnv, writeFiles } from './helpers/temp.js';

const quote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

/** Runs lore with stderr on a pseudo-terminal (stdout to a file): what a person at a terminal sees on stderr. */
function onTerminal(t: TestContext, args: string[], cwd: string, env: NodeJS.ProcessEnv = testEnv()): Promise<{ code: number; stderr: string; stdout: string }> {
  const out = join(tempDir(t), 'stdout');
  const command = [process.execPath, LORE_BIN, ...args].map(quote).join(' ') + ` > ${quote(out)}`;
  return new Promise((resolve, reject) => {
    const child = execFile('script', ['-qec', command, '/dev/null'], { cwd, env: { ...env, SHELL: '/bin/sh' }, encoding: 'utf8' }, (error, tty) => {
      if (error !== null && typeof error.code !== 'number') return reject(error);
      resolve({ code: error === null ? 0 : (error.code as number), stderr: tty, stdout: readFileSync(out, 'utf8') });
    });
    child.stdin?.end();
  });
}

const CLEAR = '\r\u001b[K';

/** The progress frames drawn, checking that the line was cleared at the end. */
function frames(stderr: string): string[] {
  assert.ok(stderr.startsWith(CLEAR) && stderr.endsWith(CLEAR), JSON.stringify(stderr));
  return stderr.slice(CLEAR.length, -CLEAR.length).split(CLEAR).filter((f) => f !== '');
}

/** A module for --import that appends "string-width" to `file` when the process loads it. */
const TRACE = (file: string): string => [
  "import { register } from 'node:module';",
  `register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(`import { appendFileSync } from 'node:fs';\nexport async function resolve(specifier, context, next) {\n  const result = await next(specifier, context);\n  if (result.url.includes('/node_modules/string-width/')) appendFileSync(${JSON.stringify(file)}, 'string-width\\n');\n  return result;\n}\n`)}));`,
].join('\n');

/** How many characters of the BMP _width.ts measures without string-width: widening the set means changing this, and the test checks each one. */
const SIMPLE_CHARACTERS = 1945;

/** A repository after lore init --no-starter (run once for the file; each test has its own copy). */
const initialised = repoFixture(async (repo) => {
  assert.equal((await lore(['init', '--no-starter'], { cwd: repo })).code, 0);
}, { 'README.md': '# demo\n' });

const OLD = '2020-01-01T00:00:00.000Z';
const EXPORT = JSON.stringify([entry({ id: 'rec-a', priority: 'low' }), entry({ id: 'rec-b' })]);
const GRAPH = JSON.stringify({ entities: [{ name: 'Api', type: 'service' }, { name: 'Db', type: 'database' }], relationships: [{ from: 'Api', to: 'Db', type: 'uses' }] });
const KG = JSON.stringify({ entities: [{ id: 'm1', thought: 'Start', role: 'actor', tags: ['task'] }] });

interface ProgressCase {
  name: string;
  args: string[];
  setup(t: TestContext): Promise<string>;
  first: string;
  last: string;
  /** Each phase's last frame (done = total), in order, when the work has several phases. */
  phases?: string[];
}

const PROGRESS: ProgressCase[] = [
  { name: 'validate', args: ['validate'], setup: initialised, first: 'reading record files 1/11', last: 'reading record files 11/11' },
  {
    name: 'import', args: ['import', 'export.json'], first: 'checking entries 1/2', last: 'renaming files 2/2',
    phases: ['checking entries 2/2', 'writing entries 2/2', 'staging files 2/2', 'renaming files 2/2'],
    setup: async (t) => {
      const repo = await initialised(t);
      writeFiles(repo, { 'export.json': EXPORT });
      return repo;
    },
  },
  {
    name: 'prune', args: ['prune'], first: 'reading entries 1/2', last: 'checking entries 2/2',
    setup: async (t) => {
      const repo = await initialised(t);
      writeFiles(repo, entryFiles([entry({ id: 'rec-old', priority: 'low', createdAt: OLD }), entry({ id: 'rec-new' })]));
      return repo;
    },
  },
  {
    // Entries of two types: the count runs over the files of every folder, once.
    name: 'duplicates', args: ['duplicates'], first: 'reading entries 1/3', last: 'comparing meanings 3/3',
    phases: ['reading entries 3/3', 'comparing words 3/3', 'comparing meanings 3/3'],
    setup: async (t) => {
      const repo = await initialised(t);
      writeFiles(repo, entryFiles([entry({ id: 'rec-a' }), entry({ id: 'rec-b', title: 'Another title' }), entry({ id: 'learn-c', type: 'learning', title: 'A lesson learned' })]));
      return repo;
    },
  },
  {
    name: 'check --range', args: ['check', '--range', 'main~2...main'], first: 'reading commits 1/2', last: 'scanning commits 2/2',
    setup: async (t) => {
      const repo = guardRepo(t);
      for (const n of [1, 2]) {
        writeFiles(repo, { [`f${n}.txt`]: `line ${n}\n` });
        gitSync(repo, ['add', '-A']);
        gitSync(repo, ['commit', '-q', '-m', `commit ${n}`]);
      }
      return repo;
    },
  },
  {
    name: 'graph import', args: ['graph', 'import', 'graph.json'], first: 'writing entity files 1/2', last: 'writing entity files 2/2',
    setup: async (t) => {
      const repo = await initialised(t);
      writeFiles(repo, { 'graph.json': GRAPH });
      return repo;
    },
  },
  {
    name: 'dag migrate', args: ['dag', 'migrate', 'old'], first: 'reading kg files 1/2', last: 'reading kg files 2/2',
    setup: async (t) => {
      const repo = await initialised(t);
      writeFiles(repo, { 'old/kg.shop.json': KG, 'old/kg.app.json': KG });
      return repo;
    },
  },
];

describe('progress on long work', () => {
  for (const c of PROGRESS) {
    it(`lore ${c.name} draws "what done/total" on a terminal, clears it, and writes nothing to a pipe`, async (t) => {
      const repo = await c.setup(t);
      const piped = await lore(c.args, { cwd: repo });
      const shown = frames((await onTerminal(t, c.args, await c.setup(t))).stderr);
      // The first and the last count are always drawn; those between depend on the time they took.
      assert.deepEqual([shown[0], shown.at(-1)], [c.first, c.last]);
      if (c.phases !== undefined) assert.deepEqual(shown.filter((frame) => /(\d+)\/\1$/.test(frame)), c.phases);
      for (const frame of shown) assert.match(frame, /^[a-z ]+ \d+\/\d+$/);
      assert.deepEqual([piped.code, piped.stderr], [0, '']);
    });
  }

  it('stays silent on a terminal with --json, and the output is the same JSON', async (t) => {
    const repo = await initialised(t);
    const tty = await onTerminal(t, ['validate', '--json'], repo);
    assert.deepEqual([tty.code, tty.stderr, JSON.parse(tty.stdout).valid], [0, '', true]);
  });

  it('clears the line before a note, so a warning never lands after a count', async (t) => {
    const repo = await initialised(t);
    writeFiles(repo, { 'old/kg.shop.json': JSON.stringify({ entities: [{ id: 'm1', thought: 'Start', role: 'actor', tags: ['task'], diff: 'x' }] }) });
    const tty = await onTerminal(t, ['dag', 'migrate', 'old'], repo);
    assert.equal(tty.stderr, `${CLEAR}reading kg files 1/1${CLEAR}${join(repo, 'old/kg.shop.json')}: warning: field "diff" has no place in the thought log and was left out\r\n`);
  });
});

describe('output fitted to the width', () => {
  it('measures CJK and emoji as two columns, wraps at spaces and cuts words longer than a line', async () => {
    await loadWidthLibrary();
    assert.deepEqual([displayWidth('abc'), displayWidth('日本語'), displayWidth('🔐 ok'), displayWidth('\u001b[31mred\u001b[39m')], [3, 6, 5, 3]);
    assert.deepEqual(wrapLine('  alpha beta gamma delta', 12, 4), ['  alpha beta', '    gamma', '    delta']);
    assert.deepEqual(wrapLine('ab  cd', 4), ['ab', 'cd']);
    assert.deepEqual(wrapLine('日本語のテキストです', 8, 2), ['日本語の', '  テキス', '  トです']);
    assert.deepEqual(wrapLine('x 日本語のテキストです', 9), ['x 日本語', 'のテキス', 'トです']);
    assert.deepEqual([truncateDisplay('日本語のテキスト', 7), truncateDisplay('hello world', 6), truncateDisplay('short', 6)], ['日本語…', 'hello…', 'short']);
  });

  it('measures simple text (European scripts, punctuation, arrows, maths, box drawing) by its length, exactly as string-width does', async () => {
    const { default: stringWidth } = await import('string-width');
    const segmenter = new Intl.Segmenter();
    const simple: string[] = [];
    for (let code = 0; code <= 0xffff; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const char = String.fromCharCode(code);
      if (needsWidthLibrary(char)) continue;
      simple.push(char);
      assert.equal(stringWidth(char), 1, `U+${code.toString(16)}`);
    }
    assert.equal(simple.length, SIMPLE_CHARACTERS);
    // Strings of them: one column and one grapheme each (wrapLine cuts them between any two).
    const random = seeded(2026);
    for (let i = 0; i < 3000; i++) {
      const text = Array.from({ length: 1 + Math.floor(random() * 40) }, () => simple[Math.floor(random() * simple.length)]!).join('');
      assert.equal(stringWidth(text), text.length, JSON.stringify(text));
      assert.equal(displayWidth(text), text.length, JSON.stringify(text));
      assert.equal([...segmenter.segment(text)].length, text.length, JSON.stringify(text));
    }
    // What is not simple: the soft hyphen, a combining accent, CJK, an emoji, a tab.
    assert.deepEqual(['\u00ad', 'e\u0301', '日', '⛔', '\t'].map(needsWidthLibrary), [true, true, true, true, true]);
  });

  it('prints an operation\'s simple text without loading the width library, and loads it for text that needs it', async (t) => {
    const repo = await initialised(t);
    const loaded = join(repo, '.git', 'loaded.txt');
    const trace = join(repo, '.git', 'trace.mjs');
    writeFileSync(trace, TRACE(loaded));
    const find = (): Promise<{ code: number; stdout: string }> => new Promise((resolve) => {
      execFile(process.execPath, ['--import', trace, LORE_BIN, 'graph', 'find'], { cwd: repo, env: testEnv({ COLUMNS: '80' }) }, (error, stdout) => resolve({ code: error === null ? 0 : Number(error.code), stdout }));
    });
    assert.equal((await lore(['graph', 'add-entity', '--name', 'Café', '--type', 'service', '--description', 'Crème brûlée — “déjà vu” → ok'], { cwd: repo })).code, 0);
    assert.deepEqual(await find(), { code: 0, stdout: 'Café  service  Crème brûlée — “déjà vu” → ok\n1 entity\n' });
    assert.equal(existsSync(loaded), false);
    assert.equal((await lore(['graph', 'add-entity', '--name', '認証', '--type', 'service', '--description', 'ログイン'], { cwd: repo })).code, 0);
    assert.deepEqual(await find(), { code: 0, stdout: 'Café  service  Crème brûlée — “déjà vu” → ok\n認証  service  ログイン\n2 entities\n' });
    assert.equal(readFileSync(loaded, 'utf8'), 'string-width\n');
  });

  it('wraps a table\'s last column under itself at 80 columns and indents it by 4 at 40', async (t) => {
    const repo = await initialised(t);
    for (const [name, description] of [['認証サービス', 'ログインとセッションを管理する 🔐 サービスです。トークンの有効期限は十五分。'], ['Billing', 'Charges cards 💳 and sends invoices to customers every month']]) {
      assert.equal((await lore(['graph', 'add-entity', '--name', name!, '--type', 'service', '--description', description!], { cwd: repo })).code, 0);
    }
    const at = async (columns: string): Promise<string> => (await lore(['graph', 'find'], { cwd: repo, env: testEnv({ COLUMNS: columns }) })).stdout;
    assert.equal(await at('80'), [
      'Billing       service  Charges cards 💳 and sends invoices to customers every',
      '                       month',
      '認証サービス  service  ログインとセッションを管理する 🔐',
      '                       サービスです。トークンの有効期限は十五分。',
      '2 entities',
      '',
    ].join('\n'));
    assert.equal(await at('40'), [
      'Billing       service  Charges cards 💳',
      '    and sends invoices to customers',
      '    every month',
      '認証サービス  service',
      '    ログインとセッションを管理する 🔐 サ',
      '    ービスです。トークンの有効期限は十五',
      '    分。',
      '2 entities',
      '',
    ].join('\n'));
  });

  it('fits help to COLUMNS, and to 80 when the width is not known', async (t) => {
    const cwd = tempDir(t);
    const env = testEnv();
    delete env.COLUMNS;
    const help = async (columns: string | undefined): Promise<string> => (await lore(['completion', '--help'], { cwd, env: columns === undefined ? env : { ...env, COLUMNS: columns } })).stdout;
    assert.equal(await help('40'), [
      'lore completion - print the shell',
      '  completion script for bash, zsh or',
      '  fish',
      '',
      'Usage: lore completion <bash|zsh|fish>',
      '',
      "Prints a script that completes lore's",
      'commands, subcommands, options and the',
      'values of options that take one of a',
      'list, generated from the commands',
      'themselves. Install it once per shell;',
      'regenerate it after upgrading lore.',
      '',
      'Global options:',
      '      --store DIR  use the store in DIR',
      '                   instead of searching',
      '                   up from the working',
      '                   directory',
      '      --no-color   no colours (also',
      '                   NO_COLOR=1)',
      '  -h, --help       show this help',
      '',
      'Examples:',
      '  $ lore completion bash > ~/.local/shar',
      '      e/bash-completion/completions/lore',
      '  $ lore completion zsh > ~/.zfunc/_lore',
      '  $ lore completion fish > ~/.config/fis',
      '      h/completions/lore.fish',
      '',
    ].join('\n'));
    assert.equal(await help(undefined), await help('80'));
    assert.equal((await help('80')).split('\n').slice(0, 11).join('\n'), [
      'lore completion - print the shell completion script for bash, zsh or fish',
      '',
      'Usage: lore completion <bash|zsh|fish>',
      '',
      "Prints a script that completes lore's commands, subcommands, options and the",
      'values of options that take one of a list, generated from the commands',
      'themselves. Install it once per shell; regenerate it after upgrading lore.',
      '',
      'Global options:',
      '      --store DIR  use the store in DIR instead of searching up from the working',
      '                   directory',
    ].join('\n'));
  });
});

describe('the pre-commit hook at the terminal', () => {
  function hook(repo: string, trace: string, columns: string): Promise<{ code: number; stderr: string }> {
    return new Promise((resolve) => {
      execFile(process.execPath, ['--import', trace, LORE_BIN, 'hook', 'pre-commit'], { cwd: repo, env: testEnv({ COLUMNS: columns }) }, (error, _stdout, stderr) => resolve({ code: error === null ? 0 : Number(error.code), stderr }));
    });
  }

  it('passes in one line without loading the width library, and loads it to wrap a blocked CJK path', async (t) => {
    const repo = guardRepo(t, { [prohibitionPath('pro-env')]: prohibition('pro-env', { globs: ['**/.env'] }) });
    const loaded = join(repo, '.git', 'loaded.txt');
    const trace = join(repo, '.git', 'trace.mjs');
    writeFileSync(trace, TRACE(loaded));
    writeFiles(repo, { 'a.txt': 'x\n' });
    gitSync(repo, ['add', '-A']);
    await hook(repo, trace, '80');
    assert.deepEqual(await hook(repo, trace, '80'), { code: 0, stderr: 'lore: passed: no match for 1 prohibition in 1 file, 1 added line\n' });
    assert.equal(existsSync(loaded), false);

    writeFiles(repo, { '設定/.env': 'KEY=1\n' });
    gitSync(repo, ['add', '-A']);
    assert.deepEqual(await hook(repo, trace, '40'), {
      code: 1,
      stderr: [
        'lore: scanned the staged change: 2',
        '  files, 2 added lines, 8 bytes against',
        '  1 prohibition (0 from the change',
        '  itself)',
        '',
        'BLOCKED pro-env [critical] Title of',
        '  pro-env',
        '  設定/.env: path matches **/.env',
        '  how to proceed: take the file out of',
        '    the commit (git rm --cached --',
        '    "設定/.env"); if it must be',
        '    committed, add an allowlist record',
        '    in .knowledge/allow/ and have it',
        '    reviewed',
        '',
        'lore: blocked: 1 critical finding',
        '',
      ].join('\n'),
    });
    assert.equal(readFileSync(loaded, 'utf8'), 'string-width\n');
  });
});

describe('lore completion', () => {
  const script = async (t: TestContext, shell: string): Promise<string> => {
    const result = await lore(['completion', shell], { cwd: tempDir(t) });
    assert.equal(result.code, 0, result.stderr);
    return result.stdout;
  };

  it('completes commands, subcommands, options and option values in bash', async (t) => {
    const file = join(tempDir(t), 'lore.bash');
    writeFileSync(file, await script(t, 'bash'));
    const cases: Array<[string[], string]> = [
      [['lore', 'gr'], 'graph'],
      [['lore', 'graph', ''], 'apply add-entity relate rm-entity unrelate show find path context import export'],
      [['lore', '--store', '/tmp', 'graph', 'im'], 'import'],
      [['lore', 'check', '--fo'], '--format'],
      [['lore', 'check', '--format', ''], 'text json sarif markdown'],
      [['lore', 'check', '--range', 'a...b', '--verb'], '--verbose'],
      [['lore', 'completion', ''], 'bash zsh fish'],
      [['lore', 'list', '--priority', 'c'], 'critical'],
      [['lore', 'comp'], 'completion'],
    ];
    const program = cases.map(([words]) => `COMP_WORDS=(${words.map(quote).join(' ')}); COMP_CWORD=${words.length - 1}; COMPREPLY=(); _lore; echo "\${COMPREPLY[*]}"`).join('\n');
    const out = execFileSync('bash', ['--norc', '-c', `source ${quote(file)}\n${program}`], { encoding: 'utf8' });
    assert.deepEqual(out.split('\n').slice(0, -1), cases.map(([, expected]) => expected));
  });

  it('writes zsh and fish scripts the real shells accept, naming every command', async (t) => {
    const { COMMANDS } = await import('../src/cli/registry.js');
    const dir = tempDir(t);
    for (const shell of ['zsh', 'fish']) {
      const text = await script(t, shell);
      writeFileSync(join(dir, shell), text);
      execFileSync(shell, ['-n', join(dir, shell)]);
      for (const c of COMMANDS) for (const word of c.name.split(' ')) assert.ok(text.includes(`'${word}`) || text.includes(` ${word} `) || text.includes(` ${word}'`), `${shell} lacks ${c.name}`);
    }
    const zsh = execFileSync('zsh', ['-fc', `compdef() { :; }; source ${quote(join(dir, 'zsh'))}; _lore_offer '' graph; _lore_offer '' check --format; _lore_offer --ve dag migrate`], { encoding: 'utf8' });
    assert.equal(zsh, 'apply add-entity relate rm-entity unrelate show find path context import export\ntext json sarif markdown\n--project --log-level --log-file --json --store --no-color --help -h\n');
    const fish = execFileSync('fish', ['--no-config', '-c', `source ${quote(join(dir, 'fish'))}; complete -C 'lore gr'; complete -C 'lore graph im'; complete -C 'lore check --format s'`], { encoding: 'utf8' });
    assert.equal(fish, 'graph\tapply, add-entity, relate, rm-entity, unrelate, show, find, path, context, import, export\nimport\tmerge a memory file or MCP-memory JSONL into the graph\nsarif\ttext (default), json, sarif or markdown\n');
  });

  it('refuses a shell it does not know, naming the ones it does', async (t) => {
    const result = await lore(['completion', 'tcsh'], { cwd: tempDir(t) });
    assert.deepEqual([result.code, result.stdout, result.stderr], [2, '', 'error: lore completion does not know the shell "tcsh"\nhint: shells: bash, zsh, fish\n']);
  });
});
