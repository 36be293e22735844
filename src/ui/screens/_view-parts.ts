// What the Player/coach, Context graph, Thought DAG and Changes screens share: loading an
// operation's answer (again whenever the store changes on disk), its error, and small pieces of
// markup (where a value came from, a verdict, an empty state with the command that fills it).
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { OpError, op, useStoreEvents } from '../api.js';
import { html } from '../html.js';

/** An operation's answer as a screen holds it. */
export interface Loaded<T> {
  data: T | undefined;
  error: OpError | Error | undefined;
  loading: boolean;
  reload(): void;
}

/**
 * Runs `name` with `input` (skipped while input is undefined), again when `key` changes and when
 * the store changes on disk, so a file edited elsewhere shows without a reload.
 */
export function useOp<T>(name: string, input: unknown, key: string): Loaded<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<OpError | Error | undefined>(undefined);
  const [loading, setLoading] = useState(true);
  // Answers of an older request may arrive after a newer one's: only the latest is shown.
  const latest = useRef(0);
  const run = useCallback(() => {
    if (input === undefined) return;
    const n = ++latest.current;
    setLoading(true);
    op<T>(name, input).then(
      (answer) => {
        if (n !== latest.current) return;
        setData(answer);
        setError(undefined);
        setLoading(false);
      },
      (failure: Error) => {
        if (n !== latest.current) return;
        setError(failure);
        setLoading(false);
      },
    );
  }, [name, key, input === undefined]);
  useEffect(run, [run]);
  useStoreEvents((event) => {
    if (event.type === 'change') run();
  }, [run]);
  return { data, error, loading, reload: run };
}

/** An operation's failure: lore's message, its hint and the problems by file. */
export function ErrorBanner({ error }: { error: OpError | Error }) {
  const body = error instanceof OpError ? error.body : undefined;
  return html`<div class="banner error" role="alert">
    <strong>${error.message}</strong>
    ${body?.hint === undefined ? '' : html`<div class="hint">${body.hint}</div>`}
    ${(body?.problems ?? []).map((p) => html`<div class="mono">${[p.file, p.line].filter((x) => x !== undefined).join(':')}${p.pointer === undefined ? '' : ` ${p.pointer}`}: ${p.message}</div>`)}
  </div>`;
}

/** An empty state: what is missing, and the command that adds it. */
export function Empty({ what, command }: { what: string; command?: string }) {
  return html`<div class="empty">${what}${command === undefined ? '' : html`: <code>${command}</code>`}</div>`;
}

/** Where a value came from: store, override file or the fallback built into lore. */
export function Source({ source, file }: { source: string; file?: string | undefined }) {
  const label = source === 'override' ? 'override' : source;
  return html`<span class=${`badge source ${source}`} title=${file ?? (source === 'fallback' ? 'built into lore; lore seed writes it to the store' : '')}>${label}</span>`;
}

const TONES: Record<string, string> = {
  approve: 'ok', approved: 'ok', verified: 'ok', passed: 'ok', completed: 'ok', strengthens: 'ok',
  revise: 'medium', needs_revision: 'medium', pending: 'medium', in_progress: 'medium', neutral: '',
  escalate: 'critical', reject: 'critical', failed: 'critical', weakens: 'critical', conflicted: 'critical',
  added: 'low', modified: 'medium', changed: 'medium', deleted: 'high', removed: 'high',
};

/** A word as a badge coloured by what it means (approve green, revise amber, reject red). */
export function Tone({ word, label }: { word: string; label?: string }) {
  return html`<span class=${`badge ${TONES[word] ?? ''}`}>${label ?? word.replace(/_/g, ' ')}</span>`;
}

/** A date as people read it, in their time zone, with the exact value on hover. */
export function When({ iso }: { iso: string }) {
  const date = new Date(iso);
  const text = Number.isNaN(date.getTime()) ? iso : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  return html`<time datetime=${iso} title=${iso}>${text}</time>`;
}
