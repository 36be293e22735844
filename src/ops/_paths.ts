// Files and folders an operation's input names: a baseline, a memory file, a folder to migrate.
// The CLI takes them as the person typed them. An HTTP or MCP caller (OpContext.confined) names
// only the repository's own files: inside the store's root (the working directory outside a
// store), not under .git/ or .knowledge/, and reached through no symbolic link. Otherwise an agent
// allowed lore's tools could overwrite .git/hooks/pre-commit (the guard gone), put a file the store
// cannot read into .knowledge/, or read any file of the machine into an error message.
import { lstat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { isErrno, LoreError } from '../errors.js';
import type { OpContext } from './_define.js';

/** Folders a confined caller never names: git's own (hooks, config) and the store's (written only through its operations). */
const CLOSED = new Set(['.git', '.knowledge']);

/** The folder a confined caller's paths must stay in: the store's root, else the working directory. */
async function boundary(ctx: OpContext): Promise<string> {
  try {
    return (await ctx.ws.store({ allowInvalidConfig: true })).root;
  } catch (error) {
    if (error instanceof LoreError && error.code === 'STORE_NOT_FOUND') return resolve(ctx.ws.cwd);
    throw error;
  }
}

/**
 * The absolute path of `given` (resolved against the working directory), the input's `field`. For
 * a confined caller, refused (USAGE) unless it is a file or folder of the repository as above
 * (with `inStore`, one under .knowledge/ too: a file the guard is asked to check).
 */
export async function inputPath(ctx: OpContext, given: string, field: string, options: { inStore?: boolean } = {}): Promise<string> {
  if (given.includes('\0')) throw new LoreError('USAGE', `${field} ${JSON.stringify(given)} holds a NUL character, which no path can`);
  const path = resolve(ctx.ws.cwd, given);
  if (ctx.confined !== true) return path;
  const root = await boundary(ctx);
  const refuse = (why: string): LoreError =>
    new LoreError('USAGE', `${field} ${JSON.stringify(given)} ${why}`, { hint: `over HTTP and MCP, ${field} names a file of the repository (${root}) outside .git/ and .knowledge/; the CLI takes any path` });
  const inside = relative(root, path);
  if (inside === '') return path; // the repository itself (a folder to read)
  if (inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside)) throw refuse('is not inside the repository');
  const parts = inside.split(sep);
  const closed = parts.find((part) => CLOSED.has(part.toLowerCase()) && !(options.inStore === true && part === '.knowledge'));
  if (closed !== undefined) throw refuse(`is inside ${closed}/`);
  let at = root;
  for (const part of parts) {
    at = join(at, part);
    try {
      if ((await lstat(at)).isSymbolicLink()) throw refuse(`goes through the symbolic link ${relative(root, at)}`);
    } catch (error) {
      if (isErrno(error, 'ENOENT') || isErrno(error, 'ENOTDIR')) break; // the rest does not exist yet
      throw error;
    }
  }
  return path;
}
