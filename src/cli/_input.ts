// Reading a command's input: a FILE, or standard input for `-` (or for no FILE when stdin is piped).
// One reader for every command, so input is capped, decoded strictly, and errors read the same everywhere.
import { createReadStream } from 'node:fs';
import { resolve } from 'node:path';
import { isErrno, LoreError, UsageError } from '../errors.js';
import { decodeUtf8OrThrow } from '../fs/utf8.js';
import type { InputText } from '../knowledge/task-input.js';
import type { Store } from '../store/open.js';
import type { CommandContext } from './command.js';

export type { InputText };

/** How much input a command accepts, and the setting that raises it (named in the error). */
export interface InputLimit {
  bytes: number;
  setting?: string;
}

/** Inputs are untrusted: refuse more than this unless a command asks for another cap. */
export const DEFAULT_INPUT_LIMIT: InputLimit = { bytes: 64 * 1024 * 1024 };

/** The cap of a store's record files, for inputs that become records or are read like them. */
export function storeInputLimit(store: Store): InputLimit {
  return { bytes: store.config.limits.max_file_bytes, setting: 'limits.max_file_bytes in .knowledge/config.yaml' };
}

/** Reads a stream to the end, refusing it as soon as it passes the limit (a FIFO or /dev/zero too). */
async function readBounded(stream: AsyncIterable<unknown>, name: string, limit: InputLimit): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buffer.length;
    if (size > limit.bytes) {
      throw new LoreError('TOO_LARGE', `${name} is over the limit of ${limit.bytes} bytes${limit.setting === undefined ? '' : ` (${limit.setting})`}`);
    }
    chunks.push(buffer);
  }
  // Untrusted bytes are decoded strictly: a byte that is not UTF-8 is an error with its line, not a U+FFFD.
  return decodeUtf8OrThrow(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size), name, name === '<stdin>' ? 'the input' : 'the file');
}

/** Reads FILE, or stdin for `-`; with no FILE, stdin when it is not a terminal. `file` names it (`<stdin>`). */
export async function readInputText(ctx: CommandContext, path: string | undefined, limit = DEFAULT_INPUT_LIMIT): Promise<InputText> {
  if (path === undefined || path === '-') {
    if (path === undefined && (ctx.stdin as { isTTY?: boolean }).isTTY === true) throw new UsageError('no input: give a FILE, or - to read standard input');
    return { text: await readBounded(ctx.stdin, '<stdin>', limit), file: '<stdin>' };
  }
  try {
    return { text: await readBounded(createReadStream(resolve(ctx.cwd, path)), path, limit), file: path };
  } catch (error) {
    if (error instanceof LoreError) throw error;
    if (isErrno(error, 'ENOENT')) throw new LoreError('NOT_FOUND', `${path} does not exist`, { cause: error });
    throw new LoreError('IO', `could not read ${path}: ${(error as Error).message}`, { cause: error });
  }
}
