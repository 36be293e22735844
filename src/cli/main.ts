// The CLI entry: global flags, dispatch to a lazily loaded command, help, and the one place
// where errors become exit codes (0 success, 1 a policy said no, 2 usage or operational error).
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { LoreError, UsageError } from '../errors.js';
import { suggest } from '../schema/suggest.js';
import { Workspace } from '../workspace/workspace.js';
import type { CommandContext, CommandSpec, OpCommandSpec, OptionSpec, OptionValues } from './command.js';
import { convertOptions, parseArgsOptions } from './_options.js';
import { formatProblem, makeStyle, sortProblems, type Style } from './format.js';
import { COMMANDS, findCommand, subcommands } from './registry.js';

export interface CliIO {
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  stdin: NodeJS.ReadableStream;
}

const GLOBAL_OPTIONS: Record<string, OptionSpec> = {
  json: { type: 'boolean', description: 'print the result as JSON' },
  store: { type: 'string', value: 'DIR', description: 'use the store in DIR instead of searching up from the working directory' },
  'no-color': { type: 'boolean', description: 'no colours (also NO_COLOR=1)' },
  help: { type: 'boolean', short: 'h', description: 'show this help' },
};

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

function optionLines(options: Record<string, OptionSpec>): string[] {
  const rows = Object.entries(options).map(([name, spec]) => {
    const flag = `${spec.short === undefined ? '    ' : `-${spec.short}, `}--${name}${spec.value === undefined ? '' : ` ${spec.value}`}${spec.multiple ? ' ...' : ''}`;
    return [flag, spec.description];
  });
  const width = Math.max(...rows.map(([flag]) => flag!.length));
  return rows.map(([flag, text]) => `  ${flag!.padEnd(width)}  ${text}`);
}

/** The `--help` text of a command. */
export function commandHelp(spec: CommandSpec): string {
  const globals = Object.fromEntries(Object.entries(GLOBAL_OPTIONS).filter(([name]) => name !== 'json' || spec.json !== false));
  const lines = [`lore ${spec.name} - ${spec.summary}`, '', `Usage: lore ${spec.name}${spec.usage === '' ? '' : ` ${spec.usage}`}`];
  if (spec.description !== undefined) lines.push('', spec.description);
  if (Object.keys(spec.options).length > 0) lines.push('', 'Options:', ...optionLines(spec.options));
  lines.push('', 'Global options:', ...optionLines(globals));
  if (spec.examples.length > 0) lines.push('', 'Examples:', ...spec.examples.map((e) => `  $ ${e}`));
  return lines.join('\n');
}

function topHelp(): string {
  const groups = new Map<string, string[]>();
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  for (const c of COMMANDS) groups.set(c.group, [...(groups.get(c.group) ?? []), `  ${c.name.padEnd(width)}  ${c.summary}`]);
  const lines = ['lore - a git-native knowledge store for teams that build software with coding agents', '', 'Usage: lore <command> [options]'];
  for (const [group, rows] of groups) lines.push('', `${group}:`, ...rows);
  lines.push('', 'Every command takes --help, and --json where it prints a result.', 'Exit codes: 0 success, 1 a policy said no (invalid store, blocked), 2 usage or operational error.');
  return lines.join('\n');
}

function groupHelp(group: string): string {
  const subs = subcommands(group);
  const width = Math.max(...subs.map((c) => c.name.length));
  return [`Usage: lore ${group} <command> [options]`, '', 'Commands:', ...subs.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`)].join('\n');
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

function printError(error: unknown, io: CliIO, style: Style, json: boolean): number {
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
  const viaDaemon = spec.daemon === true || (typeof spec.daemon === 'function' && spec.daemon(input as never));
  const answer = viaDaemon ? await (await import('./_daemon-client.js')).askDaemon({ cwd: ctx.cwd, store: ctx.storeDir, env: ctx.env, version: version(), note: ctx.note }, spec.op, input) : undefined;
  let output: unknown;
  if (answer !== undefined) {
    output = answer.output;
  } else {
    const { runOp } = await import('../ops/run.js');
    output = await runOp(spec.op, input, {
      ws: ctx.workspace,
      note: ctx.note,
      progress: (done, total, what) => ctx.progress(`reading ${done}/${total} ${what}...`),
    }, { checkOutput });
  }
  ctx.progress(undefined);
  if (ctx.json) {
    ctx.printJson(output);
    return spec.exit?.(output) ?? 0;
  }
  const code = await spec.print(output, ctx);
  return typeof code === 'number' ? code : (spec.exit?.(output) ?? 0);
}

/** Runs the CLI with the given arguments; returns the exit code. */
export async function run(argv: readonly string[], io: CliIO): Promise<number> {
  const json = argv.includes('--json');
  const style = makeStyle(io.env, io.stdout.isTTY === true, argv.includes('--no-color'));
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
      io.stdout.write(`${target === undefined ? topHelp() : commandHelp((await target.entry.load()).command)}\n`);
      return words.length === 0 && lead.length === 0 ? 2 : 0;
    }
    const found = findCommand(words);
    if (found === undefined) {
      const [first, sub] = [words[0]!, words[1]];
      if (subcommands(first).length > 0) {
        if (sub === undefined || sub.startsWith('-')) {
          io.stdout.write(`${groupHelp(first)}\n`);
          return sub === '--help' || sub === '-h' || lead.includes('--help') || lead.includes('-h') ? 0 : 2;
        }
        const hint = suggest(sub, subcommands(first).map((c) => c.name.split(' ')[1]!));
        throw new UsageError(`unknown command "lore ${first} ${sub}"`, hint === undefined ? `see lore ${first} --help` : `did you mean "lore ${first} ${hint}"?`);
      }
      const hint = suggest(first, [...new Set(COMMANDS.map((c) => c.name.split(' ')[0]!))]);
      throw new UsageError(`unknown command "${first}"`, hint === undefined ? 'see lore --help' : `did you mean "lore ${hint}"?`);
    }
    const { command: spec } = await found.entry.load();
    let parsed: { values: OptionValues; positionals: string[] };
    try {
      const raw = parseArgs({ args: [...lead, ...found.rest], options: parseArgsOptions({ ...spec.options, ...GLOBAL_OPTIONS }), allowPositionals: true, strict: true });
      parsed = { values: convertOptions(spec.options, raw.values), positionals: raw.positionals };
    } catch (error) {
      if (error instanceof LoreError) throw error;
      throw parseUsageError(error as Error, spec);
    }
    if (parsed.values.help === true) {
      io.stdout.write(`${commandHelp(spec)}\n`);
      return 0;
    }
    const [min, max] = spec.positionals;
    if (parsed.positionals.length < min) throw new UsageError(`lore ${spec.name} needs ${spec.usage.split(' ').filter((w) => w.startsWith('<')).join(' ') || `${min} argument(s)`}`, `usage: lore ${spec.name} ${spec.usage}`);
    if (parsed.positionals.length > max) throw new UsageError(`unexpected argument "${parsed.positionals[max]}" for lore ${spec.name}`, `usage: lore ${spec.name} ${spec.usage}`);
    const storeDir = parsed.values.store as string | undefined;
    const note = (text: string): void => {
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
      columns: io.stdout.isTTY === true ? (io.stdout.columns ?? 100) : undefined,
      storeDir,
      stdin: io.stdin,
      workspace,
      print: (text) => {
        io.stdout.write(`${text}\n`);
      },
      printJson: (value) => {
        io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
      },
      note,
      progress: (text) => {
        if (io.stderr.isTTY === true) io.stderr.write(text === undefined ? '\r\u001b[K' : `\r\u001b[K${text}`);
      },
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
    return printError(error, io, style, json);
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
