// When lore's caches in .knowledge/.cache/ are written. A short process (the CLI) writes each one
// where it is made, before it exits. A long-lived one (the daemon, the MCP server) defers them:
// the answer that needed a rebuild goes out first, and the caches follow, one at a time, so they
// never hold up a request. A cache written later is still keyed by what it was made from, so it
// can never describe files other than its key says; a newer write of the same file replaces one
// not yet made. Caches are optimisations: a write that fails (read-only checkout) changes nothing.

/** How many long-lived servers in this process defer (tests run several). */
let deferring = 0;
/** The writes not yet made, by file: the newest of each, in the order the files first came. */
const pending = new Map<string, () => Promise<void>>();
let draining: Promise<void> | undefined;

/** Makes this process write its caches after answering, until the function it returns is called. */
export function deferCacheWrites(): () => void {
  deferring++;
  let held = true;
  return () => {
    if (held) deferring--;
    held = false;
  };
}

/**
 * Writes the cache file at `path` with `write`, which also makes its bytes: now, or, when writes
 * are deferred, once the current work has yielded (the promise then settles at once).
 */
export async function writeCache(path: string, write: () => Promise<void>): Promise<void> {
  if (deferring === 0) return write().catch(() => undefined);
  pending.set(path, write);
  draining ??= drain();
}

async function drain(): Promise<void> {
  for (;;) {
    // Whatever answer is being sent leaves first, and requests interleave between writes.
    await new Promise((resolve) => setImmediate(resolve));
    const next = pending.entries().next();
    if (next.done === true) break;
    const [path, write] = next.value;
    pending.delete(path);
    await write().catch(() => undefined);
  }
  draining = undefined;
}

/** Settles once every deferred write has been made: before a long-lived process exits. */
export async function cacheWritesDone(): Promise<void> {
  while (draining !== undefined) await draining;
}
