// Regular expressions from knowledge files are untrusted: they run in re2js, a linear-time
// engine (RE2 syntax), so no pattern can hang a hook. re2js loads on first use only.
import { createRequire } from 'node:module';
import type { RE2JS } from 're2js';
import { requireWithCodeCache } from '../fs/code-cache.js';

type Engine = typeof import('re2js');
let engine: Engine | undefined;
/** Where the engine's code cache is kept (keepEngineCode), and how this run's is written. */
let codeFile: string | undefined;
let saveCode: (() => Promise<void>) | undefined;

function re2(): Engine {
  // A synchronous, lazy load: commands that never run a regex never pay for the engine.
  if (engine === undefined) {
    if (codeFile === undefined) engine = createRequire(import.meta.url)('re2js') as Engine;
    else {
      const loaded = requireWithCodeCache('re2js', import.meta.url, codeFile);
      engine = loaded.exports as Engine;
      saveCode = loaded.save;
    }
  }
  return engine;
}

/**
 * Loads the engine, when a regex first runs, with V8's code cache in `file` (see fs/code-cache.ts):
 * for short processes that run a few regexes, such as the commit hook. `file` must be somewhere a
 * clone or an archive cannot write (under .git/).
 */
export function keepEngineCode(file: string): void {
  codeFile = file;
}

/** Writes the engine's code cache when this run loaded the engine without a usable one (best effort). */
export async function saveEngineCode(): Promise<void> {
  await saveCode?.();
}

/** A compiled pattern that runs in linear time. */
export interface SafeRegex {
  readonly source: string;
  /** Whether the pattern occurs anywhere in the text. */
  test(text: string): boolean;
  /** The first occurrence: its start offset and text. */
  find(text: string): { index: number; text: string } | undefined;
}

const cache = new Map<string, SafeRegex>();

/**
 * The most instructions a compiled pattern may have. RE2 runs in time linear in the text, but the
 * factor is the program's size: (?:a|b){1000} four times over (4,003 instructions) reads 75 µs a
 * character, and a 64 MiB staged file would hold a commit for over an hour. The largest rule lore
 * ships has under 200.
 */
export const MAX_PROGRAM_SIZE = 1000;

function wrap(source: string, compiled: RE2JS): SafeRegex {
  return {
    source,
    test: (text) => compiled.test(text),
    find: (text) => {
      // test() is about three times cheaper than a Matcher, and most calls do not match.
      if (!compiled.test(text)) return undefined;
      const matcher = compiled.matcher(text);
      return matcher.find() ? { index: matcher.start(), text: matcher.group() ?? '' } : undefined;
    },
  };
}

/** A pattern RE2 compiles but lore refuses for its size. */
class TooLargePattern extends Error {}

/** Compiles a pattern (cached); throws an Error whose message says why RE2 refuses it. */
export function compileRegex(source: string): SafeRegex {
  let regex = cache.get(source);
  if (regex === undefined) {
    const compiled = re2().RE2JS.compile(source);
    const size = compiled.programSize();
    if (size > MAX_PROGRAM_SIZE) throw new TooLargePattern(`it compiles to ${size} instructions, over the ${MAX_PROGRAM_SIZE} lore runs (its time grows with the text times the pattern's size): write it shorter, with fewer or smaller repetitions`);
    regex = wrap(source, compiled);
    cache.set(source, regex);
  }
  return regex;
}

/** Why a pattern cannot be used, or undefined when it compiles. */
export function regexProblem(source: string): string | undefined {
  try {
    compileRegex(source);
    return undefined;
  } catch (error) {
    if (error instanceof TooLargePattern) return `is not a usable regular expression: ${error.message}`;
    const reason = (error as Error).message.replace(/^error parsing regexp: /, '');
    return `is not a usable regular expression: ${reason} (patterns use RE2 syntax and run in linear time, so back-references and lookaround are not available)`;
  }
}
