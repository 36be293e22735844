// The CLI entry: global flags, dispatch to a lazily loaded command, help, and the one place
// where errors become exit codes (0 success, 1 a policy said no, 2 usage or operational error).
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { LoreError, systemError, UsageError } from '../errors.js';
import { suggest } from '../schema/suggest.js';
import { Workspace } from '../workspace/workspace.js';
import type { CliIO, CommandContext, CommandSpec, OpCommandSpec, OptionSpec, OptionValues } from './command.js';
import { convertOptions, GLOBAL_OPTIONS, parseArgsOptions } from './_options.js';
import { formatProblem, makeStyle, sortProblems, type Style } from './format.js';
import { displayWidth, loadWidthLibrary, padDisplay, terminalColumns, WidthLibraryNeeded, wrapLine } from './_width.js';
import { createProgress } from './progress.js';
import { COMMANDS, findCommand, subcommands } from './registry.js';

// For cli/load.ts: where the bundled CLI keeps the regex engine's code cache.
export { keepEngineCode, saveEngineCode } from '../match/regex.js';


/** What lore's exit codes mean for every command; a command's own `exits` say when it gives 1 (or 3). */
export const EXIT_CODES: ReadonlyArray<readonly [number, string]> = [[0, 'success'], [1, 'a policy said no (invalid store, blocked)'], [2, 'usage or operational error']];

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

function optionLines(options: Record<string, OptionSpec>, columns: number): string[] {
  return listLines(Object.entries(options).map(([name, spec]) => {
    const flag = `${spec.short === undefined ? '    ' : `-${spec.short}, `}--${name}${spec.value === undefined ? '' : ` ${spec.value}`}${spec.multiple ? ' ...' : ''}`;
    return [flag, spec.description];
  }), columns);
}

// Two columns, the second wrapped under itself; on a terminal too narrow for that, under the first.
function listLines(rows: ReadonlyArray<readonly [string, string]>, columns: number): string[] {
  const width = Math.max(...rows.map(([name]) => displayWidth(name)));
  if (width + 4 > columns / 2) return rows.flatMap(([name, text]) => [`  ${name}`, ...wrapLine(`          ${text}`, columns, 10)]);
  return rows.flatMap(([name, text]) => wrapLine(`  ${padDisplay(name, width)}  ${text}`, columns, width + 4));
}

// A description's paragraphs refilled to the width; a line starting with -- (a flag) starts a new line.
function describe(description: string, columns: number): string[] {
  return description.split('\n\n').flatMap((paragraph, i) => {
    const lines = paragraph.split('\n').reduce<string[]>((out, line) => (out.length === 0 || line.startsWith('--') ? [...out, line] : [...out.slice(0, -1), `${out.at(-1)!} ${line}`]), []);
    return [...(i === 0 ? [] : ['']), ...lines.flatMap((line) => wrapLine(line, columns))];
  });
}

/** The `--help` text of a command, fitted to `columns`. */
export function commandHelp(spec: CommandSpec, columns: number): string {
  const globals = Object.fromEntries(Object.entries(GLOBAL_OPTIONS).filter(([name]) => name !== 'json' || spec.json !== false));
  const lines = [...wrapLine(`lore ${spec.name} - ${spec.summary}`, columns, 2), '', ...wrapLine(`Usage: lore ${spec.name}${spec.usage === '' ? '' : ` ${spec.usage}`}`, columns, 7)];
  if (spec.description !== undefined) lines.push('', ...describe(spec.description, columns));
  if (Object.keys(spec.options).length > 0) lines.push('', 'Options:', ...optionLines(spec.options, columns));
  lines.push('', 'Global options:', ...optionLines(globals, columns));
  if (spec.exits !== undefined) lines.push('', 'Exit codes:', ...listLines(Object.entries(spec.exits).map(([code, text]) => [code, text]), columns));
  if (spec.examples.length > 0) lines.push('', 'Examples:', ...spec.examples.flatMap((e) => wrapLine(`  $ ${e}`, columns, 6)));
  return lines.join('\n');
}

function topHelp(columns: number): string {
  const groups = new Map<string, Array<[string, string]>>();
  for (const c of COMMANDS) groups.set(c.group, [...(groups.get(c.group) ?? []), [c.name, c.summary]]);
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  const lines = [...wrapLine('lore - a git-native knowledge store for teams that build software with coding agents', columns, 2), '', 'Usage: lore <command> [options]'];
  // One width for every group, so the summaries line up down the page.
  for (const [group, rows] of groups) lines.push('', `${group}:`, ...listLines(rows.map(([name, text]) => [name.padEnd(width), text]), columns));
  lines.push('', ...['Every command takes --help, and --json where it prints a result.', `Exit codes: ${EXIT_CODES.map(([code, text]) => `${code} ${text}`).join(', ')}.`].flatMap((line) => wrapLine(line, columns, 2)));
  return lines.join('\n');
}

function groupHelp(group: string, columns: number): string {
  return [`Usage: lore ${group} <command> [options]`, '', 'Commands:', ...listLines(subcommands(group).map((c) => [c.name, c.summary]), columns)].join('\n');
}

function parseUsageError(error: Error, spec: CommandSpec): UsageError {
  const code = (error as NodeJS.ErrnoException).code;
  const unknown = /Unknown option '(-{1,2}[^']+)'/.exec(error.message)?.[1];
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && unknown !== undefined) {
    const known = [...Object.keys(spec.options), ...Object.keys(GLOBAL_OPTIONS)];
    const hint = suggest(unknown.replace(/^-+/, ''), known);
    return new UsageError(`unknown option ${unknown} for lore ${spec.name}`, hint === undefined ? `see lore ${spec.name} --help` : `did you mean --${hint}?`);
  }
  return new UsageError(error.message.replace(/\. To specify a positional argument.*$/, ''), `see lore ${spec.name} --help`);
}

function printError(thrown: unknown, io: CliIO, style: Style, json: boolean): number {
  const error = systemError(thrown) ?? thrown;
  if (error instanceof LoreError) {
    if (json) {
      io.stdout.write(`${JSON.stringify({ error: { code: error.code, message: error.message, ...(error.hint === undefined ? {} : { hint: error.hint }), problems: error.problems } }, null, 2)}\n`);
    } else {
      const lines = [`${style.red('error')}: ${error.message}`];
      for (const problem of sortProblems(error.problems)) lines.push(formatProblem(problem, style));
      if (error.hint !== undefined) lines.push(`${style.dim('hint')}: ${error.hint}`);
      io.stderr.write(`${lines.join('\n')}\n`);
    }
    return error.exitCode;
  }
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  io.stderr.write(`${style.red('internal error')}: ${detail}\n\nThis is a bug in lore. Please report it with the output above.\n`);
  return 2;
}

/**
 * Runs a command over an operation: its input from the flags, the operation, then the output as
 * JSON (exactly the operation's output) or as text. With checkOutput (LORE_CHECK_OUTPUT=1, as the
 * tests run) the output is also checked against the operation's output schema.
 */
async function runOpCommand(spec: OpCommandSpec<unknown>, ctx: CommandContext, checkOutput: boolean): Promise<number> {
  const input = await spec.input(ctx);
  const op = spec.opFor?.(ctx.options) ?? spec.op;
  const viaDaemon = spec.daemon === true || (typeof spec.daemon === 'function' && spec.daemon(input as never));
  const answer = viaDaemon ? await (await import('./_daemon-client.js')).askDaemon({ cwd: ctx.cwd, store: ctx.storeDir, env: ctx.env, version: version(), note: ctx.note }, op, input) : undefined;
  let output: unknown;
  if (answer !== undefined) {
    output = answer.output;
  } else {
    const { runOp } = await import('../ops/run.js');
    output = await runOp(op, input, { ws: ctx.workspace, note: ctx.note, progress: ctx.progress }, { checkOutput });
  }
  if (ctx.json) {
    ctx.printJson(output);
    return spec.exit?.(output) ?? 0;
  }
  const code = await printText(spec, output, ctx);
  return typeof code === 'number' ? code : (spec.exit?.(output) ?? 0);
}

/**
 * An operation's output as text. The width library is loaded only when what is printed needs it:
 * the lines (and notes) are collected, and when one met text that is not simple before the
 * library was loaded, they are made again with it. Then they are written, in order.
 */
async function printText(spec: OpCommandSpec<unknown>, output: unknown, ctx: CommandContext): Promise<number | void> {
  const attempt = async (): Promise<{ code: number | void; writes: Array<['print' | 'note', string]> }> => {
    const writes: Array<['print' | 'note', string]> = [];
    const code = await spec.print(output, { ...ctx, print: (text) => writes.push(['print', text]), note: (text) => writes.push(['note', text]) });
    return { code, writes };
  };
  let done;
  try {
    done = await attempt();
  } catch (error) {
    if (!(error instanceof WidthLibraryNeeded)) throw error;
    await loadWidthLibrary();
    done = await attempt();
  }
  for (const [to, text] of done.writes) ctx[to](text);
  return done.code;
}

/** Runs the CLI with the given arguments; returns the exit code. */
export async function run(argv: readonly string[], io: CliIO): Promise<number> {
  const json = argv.includes('--json');
  const style = makeStyle(io.env, io.stdout.isTTY === true, argv.includes('--no-color'));
  const columns = terminalColumns(io.stdout.isTTY === true ? io.stdout : io.stderr, io.env);
  const progress = createProgress(io.stderr, io.env, io.stderr.isTTY === true && !json && io.env.TERM !== 'dumb');
  try {
    // Global flags may come before the command: `lore --json list`.
    const lead: string[] = [];
    let at = 0;
    while (at < argv.length && argv[at]!.startsWith('-')) {
      lead.push(argv[at]!);
      if (argv[at] === '--store' && at + 1 < argv.length) lead.push(argv[++at]!);
      at++;
    }
    const words = argv.slice(at);
    if (words.length === 0 || words[0] === 'help') {
      if (lead.includes('--version') || lead.includes('-v')) {
        io.stdout.write(`${version()}\n`);
        return 0;
      }
      const target = words[0] === 'help' && words[1] !== undefined ? findCommand(words.slice(1)) : undefined;
      await loadWidthLibrary();
      io.stdout.write(`${target === undefined ? topHelp(columns) : commandHelp((await target.entry.load()).command, columns)}\n`);
      return words.length === 0 && lead.length === 0 ? 2 : 0;
    }
    const found = findCommand(words);
    if (found === undefined) {
      const [first, sub] = [words[0]!, words[1]];
      if (subcommands(first).length > 0) {
        if (sub === undefined || sub.startsWith('-')) {
          await loadWidthLibrary();
          io.stdout.write(`${groupHelp(first, columns)}\n`);
          return sub === '--help' || sub === '-h' || lead.includes('--help') || lead.includes('-h') ? 0 : 2;
        }
        const hint = suggest(sub, subcommands(first).map((c) => c.name.split(' ')[1]!));
        throw new UsageError(`unknown command "lore ${first} ${sub}"`, hint === undefined ? `see lore ${first} --help` : `did you mean "lore ${first} ${hint}"?`);
      }
      const hint = suggest(first, [...new Set(COMMANDS.map((c) => c.name.split(' ')[0]!))]);
      throw new UsageError(`unknown command "${first}"`, hint === undefined ? 'see lore --help' : `did you mean "lore ${hint}"?`);
    }
    const { command: spec } = await found.entry.load();
    // Output for people is measured in columns (JSON is not). The hook, and commands over an
    // operation (printText), load the width library themselves, only for text that needs it.
    if (spec.light !== true && !json && !('op' in spec)) await loadWidthLibrary();
    let parsed: { values: OptionValues; positionals: string[] };
    try {
      const raw = parseArgs({ args: [...lead, ...found.rest], options: parseArgsOptions({ ...spec.options, ...GLOBAL_OPTIONS }), allowPositionals: true, strict: true });
      parsed = { values: convertOptions(spec.options, raw.values), positionals: raw.positionals };
    } catch (error) {
      if (error instanceof LoreError) throw error;
      throw parseUsageError(error as Error, spec);
    }
    if (parsed.values.help === true) {
      await loadWidthLibrary();
      io.stdout.write(`${commandHelp(spec, columns)}\n`);
      return 0;
    }
    const [min, max] = spec.positionals;
    if (parsed.positionals.length < min) throw new UsageError(`lore ${spec.name} needs ${spec.usage.split(' ').filter((w) => w.startsWith('<')).join(' ') || `${min} argument(s)`}`, `usage: lore ${spec.name} ${spec.usage}`);
    if (parsed.positionals.length > max) throw new UsageError(`unexpected argument "${parsed.positionals[max]}" for lore ${spec.name}`, `usage: lore ${spec.name} ${spec.usage}`);
    const storeDir = parsed.values.store as string | undefined;
    const note = (text: string): void => {
      progress.clear();
      io.stderr.write(`${text}\n`);
    };
    const workspace = new Workspace({ cwd: io.cwd, store: storeDir, env: io.env, onNote: note });
    const ctx: CommandContext = {
      cwd: io.cwd,
      env: io.env,
      args: parsed.positionals,
      options: parsed.values,
      json,
      style,
      columns,
      stderrIsTerminal: io.stderr.isTTY === true,
      storeDir,
      stdin: io.stdin,
      workspace,
      print: (text) => {
        progress.clear();
        io.stdout.write(`${text}\n`);
      },
      printJson: (value) => {
        io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
      },
      note,
      progress: (done, total, what) => progress.update(done, total, what),
      commands: () => Promise.all(COMMANDS.map(async (c) => (await c.load()).command)),
      runCommand: (argv, other) => run(argv, other),
      openStore: (options = {}) => workspace.store(options),
      string: (name) => parsed.values[name] as string | undefined,
      strings: (name) => (parsed.values[name] as string[] | undefined) ?? [],
      number: (name) => parsed.values[name] as number | undefined,
      flag: (name) => parsed.values[name] === true,
    };
    if (!('op' in spec)) {
      const code = await spec.run(ctx);
      return typeof code === 'number' ? code : 0;
    }
    return await runOpCommand(spec as OpCommandSpec<unknown>, ctx, io.env.LORE_CHECK_OUTPUT === '1');
  } catch (error) {
    progress.clear();
    return printError(error, io, style, json);
  } finally {
    progress.clear();
  }
}

/** Entry point of bin/lore.js. */
export async function main(argv: readonly string[]): Promise<void> {
  // A reader that stops early (`lore list | head`) closes the pipe: that is not an error.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
  process.exitCode = await run(argv, { cwd: process.cwd(), env: process.env, stdout: process.stdout, stderr: process.stderr, stdin: process.stdin });
}
