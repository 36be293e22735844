// The store's validation problems, live: read once from the daemon (which keeps the records'
// problems up to date as files change, so nothing is validated for it), then read again whenever
// the daemon reports problems appearing or clearing, so a file made invalid on disk shows at once
// (invalid files are left out of every list, and this is where a person learns why).
import { useEffect, useState } from 'preact/hooks';
import { get, subscribe, type Problem } from './api.js';
import { html } from './html.js';

let problems: Problem[] | undefined;
let loading: Promise<void> | undefined;
let timer: ReturnType<typeof setTimeout> | undefined;
const listeners = new Set<() => void>();

function load(): Promise<void> {
  loading ??= get<{ problems: Problem[] }>('/api/problems').then(
    (result) => {
      problems = result.problems;
    },
    () => undefined,
  ).finally(() => {
    loading = undefined;
    for (const l of listeners) l();
  });
  return loading;
}

subscribe((event) => {
  if (event.type !== 'change') return;
  const delta = event.problems.appeared.length + event.problems.cleared.length;
  // A change that removes a file with problems clears them too; either way, read them again.
  if (delta === 0 && !(problems ?? []).some((p) => event.paths.some((path) => path.endsWith(p.file ?? '\0') || (p.file ?? '\0').endsWith(path)))) return;
  clearTimeout(timer);
  timer = setTimeout(() => void load(), 50);
});

/**
 * The store's problems that `keep` selects; undefined until they are read. They are first read
 * once `ready` (the screen's own data shown), so the screen's data never waits behind them.
 */
export function useStoreProblems(keep: (problem: Problem) => boolean, ready = true): Problem[] | undefined {
  const [, setTick] = useState(0);
  useEffect(() => {
    const listener = (): void => setTick((n) => n + 1);
    listeners.add(listener);
    return () => void listeners.delete(listener);
  }, []);
  useEffect(() => {
    if (ready && problems === undefined) void load();
  }, [ready]);
  return problems?.filter(keep);
}

/** Where a problem is: file, line and column. */
export function where(problem: Problem): string {
  return `${problem.file ?? ''}${problem.line === undefined ? '' : `:${problem.line}`}${problem.column === undefined ? '' : `:${problem.column}`}`;
}

/** The problems as a banner: each file and position with its message. */
export function ProblemsBanner({ problems, title }: { problems: readonly Problem[]; title: string }) {
  if (problems.length === 0) return '';
  return html`<div class="banner error problems" role="alert">
    <strong>${title}</strong>
    <ul>${problems.map((p) => html`<li><code>${where(p)}</code> ${p.message}</li>`)}</ul>
  </div>`;
}
