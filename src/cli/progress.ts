// Progress of long work (import, validate, prune, duplicates, check --range, graph import, dag migrate): one
// line on stderr, "what done/total", redrawn in place at most every 100 ms and cleared at the end.
// Only on a terminal: piped, redirected, with --json or TERM=dumb it writes nothing at all.
import { canMeasure, terminalColumns, truncateDisplay } from './_width.js';

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
      const line = `${what} ${done}/${total}`;
      const width = terminalColumns(stream, env) - 1;
      // Text that is not simple, before the width library is loaded: cut where it surely fits (a character takes two columns at most).
      stream.write(`\r\u001b[K${canMeasure(line) ? truncateDisplay(line, width) : [...line].slice(0, Math.floor(width / 2)).join('')}`);
    },
    clear() {
      if (shown) stream.write('\r\u001b[K');
      shown = false;
    },
  };
}
