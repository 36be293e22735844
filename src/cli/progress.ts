// Progress of long work (import, validate, prune, check --range, graph import, dag migrate): one
// line on stderr, "what done/total", redrawn in place at most every 100 ms and cleared at the end.
// Only on a terminal: piped, redirected, with --json or TERM=dumb it writes nothing at all.
import { terminalColumns, truncateDisplay } from './_width.js';

/** What commands and operations report to; the library reports through callbacks, never to a stream. */
export interface Progress {
  update(done: number, total: number, what: string): void;
  /** Clears the line (before other output, and at the end); the next update draws again. */
  clear(): void;
}

const REDRAW_MS = 100;

/** A progress line on `stream` when `enabled`, else one that does nothing. */
export function createProgress(stream: NodeJS.WritableStream & { isTTY?: boolean; columns?: number }, env: NodeJS.ProcessEnv, enabled: boolean): Progress {
  if (!enabled) return { update: () => undefined, clear: () => undefined };
  let shown = false;
  let drawn = 0;
  return {
    update(done, total, what) {
      const now = performance.now();
      // The first and the last count always show; those between, at most every REDRAW_MS.
      if (shown && done < total && now - drawn < REDRAW_MS) return;
      [shown, drawn] = [true, now];
      // One column short of the width: a full line would wrap on some terminals.
      stream.write(`\r\u001b[K${truncateDisplay(`${what} ${done}/${total}`, terminalColumns(stream, env) - 1)}`);
    },
    clear() {
      if (shown) stream.write('\r\u001b[K');
      shown = false;
    },
  };
}
