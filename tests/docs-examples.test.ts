// Every example in README.md and docs/ runs here, as a reader would run it: each file's console
// blocks in order, in a fresh git repository under a fresh HOME, with lore on PATH; the output is
// compared with what the docs show (tests/helpers/doc-examples.ts says how to write one). A
// TypeScript file an example writes is type-checked against the package's types before it runs.
// Every `lore` command line in a sh block must name a real command and real options.
//
// LORE_UPDATE_DOCS=1 writes what the commands printed back into the docs, for blocks without `...`
// elisions; review the diff before committing it.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import { COMMANDS, findCommand } from '../src/cli/registry.js';
import { DOC_IMAGES } from './helpers/browser.js';
import { LORE_BIN } from './helpers/cli.js';
import { loreInvocations, outputLines, outputMatches, parseDocExamples, type Command } from './helpers/doc-examples.js';
import { tempDir, testEnv } from './helpers/temp.js';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const UPDATE = process.env.LORE_UPDATE_DOCS === '1';
/** The date the docs show for "today". */
const DOCS_DATE = '2026-11-24';
/** Fixed commit dates make commit ids the same on every run. */
const GIT_DATE = '2026-11-24T12:00:00Z';

function markdownFiles(): string[] {
  const found = ['README.md'];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(join(REPO, dir), { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.md')) found.push(path);
    }
  };
  walk('docs');
  return found;
}

interface Session {
  home: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/** A new HOME holding `shop/`, a git repository on main with no commits; lore and tsx on PATH. */
function freshSession(t: TestContext): Session {
  const root = tempDir(t, 'lore-docs-');
  const bin = join(root, 'bin');
  const home = join(root, 'home');
  const cwd = join(home, 'shop');
  mkdirSync(bin);
  mkdirSync(join(home, 'node_modules'), { recursive: true });
  mkdirSync(cwd);
  symlinkSync(LORE_BIN, join(bin, 'lore'));
  symlinkSync(join(REPO, 'node_modules', '.bin', 'tsx'), join(bin, 'tsx'));
  // What `npm install --save-dev lore-knowledge` gives a program: the package, found from HOME down.
  symlinkSync(REPO, join(home, 'node_modules', 'lore-knowledge'));
  writeFileSync(join(home, 'package.json'), '{ "private": true, "type": "module" }\n');
  const env = testEnv({
    HOME: home,
    PATH: `${bin}:${process.env.PATH}`,
    COLUMNS: '100',
    LORE_CHECK_OUTPUT: undefined,
    npm_config_update_notifier: 'false',
    GIT_AUTHOR_DATE: GIT_DATE,
    GIT_COMMITTER_DATE: GIT_DATE,
    GIT_CONFIG_GLOBAL: join(home, '.gitconfig'),
  });
  writeFileSync(join(home, '.gitconfig'), '[user]\n\tname = Ada Lovelace\n\temail = ada@example.com\n[init]\n\tdefaultBranch = main\n[commit]\n\tgpgsign = false\n[gc]\n\tauto = 0\n');
  execFileSync('git', ['init', '-q'], { cwd, env });
  // An example may start `lore serve` in the background: stop it with the session.
  t.after(() => {
    try {
      process.kill(JSON.parse(readFileSync(join(cwd, '.knowledge', '.cache', 'daemon.json'), 'utf8')).pid);
    } catch {
      // no daemon ran, or it has stopped
    }
  });
  return { home, cwd, env };
}

/** Runs one command line in the session's shell; a `cd` carries over to the next command. */
function run(session: Session, text: string): Promise<string[]> {
  const script = `cd "$1" || exit 99\n{\n${text}\n} 2>&1\nstatus=$?\nprintf '\\n\\036%s\\036%s' "$status" "$(pwd)"`;
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', script, 'sh', session.cwd], { env: session.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', () => {
      clearTimeout(timer);
      const [body, status, cwd] = out.split('\x1e');
      if (status === undefined || cwd === undefined) return reject(new Error(`"${text}" did not finish (not valid shell, or killed after 60 s):\n${out}`));
      session.cwd = cwd;
      const lines = outputLines(normalise(body!.replace(/\n$/, ''), session));
      if (status !== '0') lines.push(`[exit ${status}]`);
      resolve(lines);
    });
  });
}

/** What varies between runs, as the docs show it: HOME as `~`, today as the docs' date. */
function normalise(text: string, session: Session): string {
  const now = new Date();
  const local = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
  return text.replaceAll(session.home, '~').replaceAll(now.toISOString().slice(0, 10), DOCS_DATE).replaceAll(local, DOCS_DATE);
}

/** Type-checks a TypeScript example against the package's own types (strict, as a user's project would). */
function typeCheck(session: Session, path: string): void {
  const config = join(session.home, 'tsconfig.examples.json');
  writeFileSync(config, JSON.stringify({
    compilerOptions: {
      strict: true, noEmit: true, target: 'es2022', module: 'esnext', moduleResolution: 'bundler',
      skipLibCheck: true, types: ['node'], typeRoots: [join(REPO, 'node_modules', '@types')],
    },
    files: [path],
  }));
  try {
    execFileSync(process.execPath, [join(REPO, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', config], { cwd: session.cwd, encoding: 'utf8', stdio: 'pipe' });
  } catch (error) {
    const e = error as { stdout?: string };
    throw new Error(`${path} does not type-check:\n${normalise(e.stdout ?? String(error), session)}`);
  }
}

interface Edit {
  from: number;
  to: number;
  lines: string[];
}

/** One markdown file's examples, in order. Returns the failures, and the edits LORE_UPDATE_DOCS would make. */
async function runFile(t: TestContext, file: string): Promise<{ failures: string[]; edits: Edit[] }> {
  const { steps } = parseDocExamples(readFileSync(join(REPO, file), 'utf8'), file);
  const failures: string[] = [];
  const edits: Edit[] = [];
  let session: Session | undefined;
  const check = (command: Command, actual: string[], indent: string): void => {
    const expected = outputLines(command.expected.join('\n'));
    if (outputMatches(expected, actual)) return;
    if (UPDATE && !expected.includes('...') && !expected.some((l) => l.includes('...'))) {
      edits.push({ from: command.from, to: command.from + expected.length - 1, lines: actual.map((l) => (l === '' ? l : indent + l)) });
      return;
    }
    failures.push(`${file}:${command.from}: \`${command.text.split('\n')[0]}\` printed\n${actual.map((l) => `  | ${l}`).join('\n')}\nbut the docs show\n${expected.map((l) => `  | ${l}`).join('\n')}`);
  };
  for (const step of steps) {
    if (step.kind === 'fresh' || session === undefined) session = freshSession(t);
    if (step.kind === 'fresh') continue;
    if (step.kind === 'file') {
      const path = join(session.cwd, step.path);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, step.content);
      if (step.path.endsWith('.ts')) {
        try {
          typeCheck(session, path);
        } catch (error) {
          failures.push(`${file}:${step.line}: ${(error as Error).message}`);
        }
      }
    } else if (step.kind === 'setup') {
      for (const text of step.commands) {
        const out = await run(session, text);
        if (out.at(-1)?.startsWith('[exit ')) failures.push(`${file}:${step.line}: setup command \`${text}\` failed:\n${out.join('\n')}`);
      }
    } else {
      for (const command of step.commands) check(command, await run(session, command.text), step.indent);
    }
  }
  return { failures, edits };
}

function applyEdits(file: string, edits: Edit[]): void {
  const lines = readFileSync(join(REPO, file), 'utf8').split('\n');
  for (const edit of [...edits].sort((a, b) => b.from - a.from)) lines.splice(edit.from, edit.to - edit.from + 1, ...edit.lines);
  writeFileSync(join(REPO, file), lines.join('\n'));
}

/** Splits a shell line into words, honouring quotes (enough for the docs' command lines). */
function words(text: string): string[] {
  return [...text.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!);
}

const GLOBAL_OPTIONS = new Set(['help', 'h', 'json', 'store', 'no-color', 'version', 'v']);

/** Why a `lore ...` command line would fail before doing anything, or undefined when it names a real command and options. */
async function commandLineProblem(text: string): Promise<string | undefined> {
  const args = words(text).filter((w) => !/^[<>|&]|^\d?>/.test(w));
  // Global options may come first: `lore --store DIR add ...`.
  while (args.length > 0 && GLOBAL_OPTIONS.has(args[0]!.replace(/^--?/, '')) && !['version', 'v', 'help', 'h'].includes(args[0]!.replace(/^--?/, ''))) args.splice(0, args[0] === '--store' ? 2 : 1);
  if (args.length === 0 || args[0]!.startsWith('-')) return args.every((a) => GLOBAL_OPTIONS.has(a.replace(/^--?/, ''))) ? undefined : `unknown option in "lore ${text}"`;
  const found = findCommand(args);
  if (!found) return `"lore ${text}": no command ${args.slice(0, 2).join(' ')}`;
  const { command } = await found.entry.load();
  for (const arg of found.rest) {
    const option = /^--([\w-]+)(?:=|$)/.exec(arg)?.[1];
    if (option === undefined || GLOBAL_OPTIONS.has(option)) continue;
    const known = command.options[option] ?? (option.startsWith('no-') ? command.options[option.slice(3)] : undefined);
    if (!known) return `"lore ${text}": lore ${command.name} has no option --${option}`;
  }
  return undefined;
}

const FILES = markdownFiles();

describe('documentation examples', { concurrency: 4 }, () => {
  for (const file of FILES) {
    it(`${file}: every console example prints what the docs show`, { timeout: 600_000 }, async (t) => {
      const { failures, edits } = await runFile(t, file);
      if (UPDATE && edits.length > 0) applyEdits(file, edits);
      assert.deepEqual(failures, [], failures.join('\n\n'));
    });
  }

  it('every lore command line in the docs names a real command and real options', async () => {
    const problems: string[] = [];
    for (const file of FILES) {
      const { loreLines } = parseDocExamples(readFileSync(join(REPO, file), 'utf8'), file);
      for (const { line, text } of loreLines) {
        const problem = await commandLineProblem(text);
        if (problem) problems.push(`${file}:${line}: ${problem}`);
      }
    }
    assert.deepEqual(problems, []);
  });
});

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading.replace(/`/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').trim().toLowerCase().replace(/[^\p{L}\p{N}\- _]/gu, '').replace(/ /g, '-');
}

/** The anchors of a Markdown file's headings (outside code blocks), numbered as GitHub numbers repeats. */
function anchors(markdown: string): Set<string> {
  const found = new Set<string>();
  const seen = new Map<string, number>();
  let fence: string | undefined;
  for (const line of markdown.split('\n')) {
    const marks = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (marks !== undefined) fence = fence === undefined ? marks : line.trim() === fence ? undefined : fence;
    if (fence !== undefined || marks !== undefined) continue;
    const heading = /^#{1,6} (.*)$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const base = slug(heading);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    found.add(n === 0 ? base : `${base}-${n}`);
  }
  return found;
}

describe('documentation links', () => {
  it('every relative link in README.md and docs/ reaches a file, and every #anchor a heading in it', () => {
    const broken: string[] = [];
    for (const file of FILES) {
      const text = readFileSync(join(REPO, file), 'utf8').replace(/```[\s\S]*?```/g, '');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        const [path, anchor] = target!.split('#') as [string, string | undefined];
        const resolved = path === '' ? file : join(dirname(file), path);
        if (!existsSync(join(REPO, resolved))) {
          broken.push(`${file}: ${target} (no file ${resolved})`);
          continue;
        }
        if (statSync(join(REPO, resolved)).isDirectory()) continue;
        const content = readFileSync(join(REPO, resolved), 'utf8');
        if (anchor !== undefined && resolved.endsWith('.md') && !anchors(content).has(anchor)) broken.push(`${file}: ${target} (no heading #${anchor} in ${resolved})`);
      }
    }
    assert.deepEqual(broken, []);
  });

  it('every image in docs/images/ is a screenshot a browser test takes, and the docs show each', () => {
    const images = readdirSync(join(REPO, 'docs', 'images')).sort();
    assert.deepEqual(images, DOC_IMAGES.map((name) => `${name}.png`).sort());
    const tests = readdirSync(join(REPO, 'tests')).filter((f) => f.startsWith('ui-')).map((f) => readFileSync(join(REPO, 'tests', f), 'utf8')).join('\n');
    const docs = FILES.map((f) => readFileSync(join(REPO, f), 'utf8')).join('\n');
    for (const name of DOC_IMAGES) {
      assert.match(tests, new RegExp(`\\(page, '${name}'\\)`), `no browser test takes the screenshot ${name}`);
      assert.match(docs, new RegExp(`images/${name}\\.png\\)`), `no page shows docs/images/${name}.png`);
    }
  });

  it('README.md links every command to its reference, in one click', () => {
    const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
    const missing = COMMANDS.filter((c) => !readme.includes(`](docs/reference/commands.md#lore-${c.name.replace(/ /g, '-')})`)).map((c) => c.name);
    assert.deepEqual(missing, []);
  });

  it("computes GitHub's anchors", () => {
    assert.deepEqual([...anchors('# A `lore query`: ranked\n## config.yaml\n```\n# not a heading\n```\n## Player/coach\n## Player/coach')], ['a-lore-query-ranked', 'configyaml', 'playercoach', 'playercoach-1']);
  });
});

describe('the example reader', () => {
  it('matches `...` lines and `...` inside lines, and nothing else', () => {
    assert.equal(outputMatches(['a', '...', 'd'], ['a', 'b', 'c', 'd']), true);
    assert.equal(outputMatches(['a', '...', 'd'], ['a', 'd']), true);
    assert.equal(outputMatches(['a', '...', 'd'], ['a', 'b', 'c']), false);
    assert.equal(outputMatches(['took ... ms'], ['took 12 ms']), true);
    assert.equal(outputMatches(['took ... ms'], ['took 12 s']), false);
    assert.equal(outputMatches(['a.b'], ['axb']), false);
    assert.equal(outputMatches(['a'], ['a', 'b']), false);
  });

  it('reads commands, continuations, expected output and directives', () => {
    const md = [
      '<!-- example: fresh -->',
      '<!-- example: setup',
      '$ git commit -q --allow-empty -m start',
      '-->',
      '<!-- example: file plan.json -->',
      '```json',
      '{ "approach": "x" }',
      '```',
      '```console',
      "$ cat > a.txt <<'EOF'",
      '> hello',
      '> EOF',
      '$ lore check-plan --plan plan.json',
      'blocked',
      '[exit 1]',
      '```',
      '```sh',
      'npm test && npx lore validate --json',
      '```',
    ].join('\n');
    const { steps, loreLines } = parseDocExamples(md, 'x.md');
    assert.deepEqual(steps.map((s) => s.kind), ['fresh', 'setup', 'file', 'console']);
    const consoleStep = steps[3] as { commands: Command[] };
    assert.deepEqual(consoleStep.commands.map((c) => [c.text, c.expected, c.from, c.to]), [
      ["cat > a.txt <<'EOF'\nhello\nEOF", [], 12, 11],
      ['lore check-plan --plan plan.json', ['blocked', '[exit 1]'], 13, 14],
    ]);
    assert.deepEqual(loreLines.map((l) => [l.line, l.text]), [[13, 'check-plan --plan plan.json'], [18, 'validate --json']]);
    assert.deepEqual(loreInvocations('$ git add . && lore check --staged | head'), ['check --staged']);
  });

  it('finds a command line that names no command or an unknown option', async () => {
    assert.equal(await commandLineProblem('query "rate limits" --max 3'), undefined);
    assert.equal(await commandLineProblem('qurey x'), '"lore qurey x": no command qurey x');
    assert.equal(await commandLineProblem('query x --maxx 3'), '"lore query x --maxx 3": lore query has no option --maxx');
    assert.equal(await commandLineProblem('--store ../org add learning --title T'), undefined);
    assert.equal(await commandLineProblem('--store ../org ad learning'), '"lore --store ../org ad learning": no command ad learning');
  });
});
