// Reading a command's input: a FILE, or standard input for `-` (or for no FILE when stdin is piped).
// One reader for every command, so input is capped and errors read the same everywhere.
import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { isErrno, LoreError, UsageError } from '../errors.js';
import type { InputText } from '../knowledge/task-input.js';
import type { CommandContext } from './command.js';

export type { InputText };

/** Inputs are untrusted: refuse more than this unless a command asks for another cap. */
export const DEFAULT_INPUT_LIMIT = 64 * 1024 * 1024;

function tooLarge(name: string, limit: number): LoreError {
  return new LoreError('TOO_LARGE', `${name} is over the limit of ${limit} bytes`);
}

/** Reads FILE, or stdin for `-`; with no FILE, stdin when it is not a terminal. `file` names it (`<stdin>`). */
export async function readInputText(ctx: CommandContext, path: string | undefined, limit = DEFAULT_INPUT_LIMIT): Promise<InputText> {
  if (path === undefined || path === '-') {
    if (path === undefined && (ctx.stdin as { isTTY?: boolean }).isTTY === true) throw new UsageError('no input: give a FILE, or - to read standard input');
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of ctx.stdin) {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      size += buffer.length;
      if (size > limit) throw tooLarge('<stdin>', limit);
      chunks.push(buffer);
    }
    return { text: Buffer.concat(chunks).toString('utf8'), file: '<stdin>' };
  }
  const absolute = resolve(ctx.cwd, path);
  try {
    if ((await stat(absolute)).size > limit) throw tooLarge(path, limit);
    return { text: await readFile(absolute, 'utf8'), file: path };
  } catch (error) {
    if (error instanceof LoreError) throw error;
    if (isErrno(error, 'ENOENT')) throw new LoreError('NOT_FOUND', `${path} does not exist`, { cause: error });
    throw new LoreError('IO', `could not read ${path}: ${(error as Error).message}`, { cause: error });
  }
}
