// The page's door to the daemon: operations by name (POST /api/ops/<name>, the op's input and
// output schemas), bundled JSON Schemas for forms, and the store's live events (server-sent).
import { useEffect } from 'preact/hooks';

/** A problem as lore reports it: file, line, JSON pointer of the field, message. */
export interface Problem {
  severity: 'error' | 'warning';
  file?: string;
  line?: number;
  column?: number;
  pointer?: string;
  message: string;
}

/** The body of every refused or failed request. */
export interface ApiErrorBody {
  code: string;
  message: string;
  hint?: string;
  problems: Problem[];
}

/** A failed operation: the HTTP status and lore's error (code, message, problems by field). */
export class OpError extends Error {
  constructor(readonly status: number, readonly body: ApiErrorBody) {
    super(body.message);
  }
}

/** One record that changed on disk (a file under .knowledge/). */
export interface RecordChange {
  path: string;
  kind?: string;
  id?: string;
  change: 'added' | 'changed' | 'removed';
}

/** What the daemon streams on /api/events. */
export type StoreEvent =
  | { type: 'change'; paths: string[]; records: RecordChange[]; problems: { appeared: Problem[]; cleared: Problem[] } }
  | { type: 'watcher'; state: 'watching' | 'restarting' | 'failed'; message?: string }
  | { type: 'hello'; version: string; store: string };

const token = document.querySelector('meta[name="lore-token"]')?.getAttribute('content') ?? '';

/** Runs the operation `name` in the daemon; throws OpError with lore's problems when it fails. */
export async function op<T>(name: string, input: unknown = {}): Promise<T> {
  const response = await fetch(`/api/ops/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-lore-token': token },
    body: JSON.stringify(input),
  });
  const body = (await response.json()) as unknown;
  if (!response.ok) throw new OpError(response.status, (body as { error: ApiErrorBody }).error);
  return body as T;
}

/** A GET of the daemon's API (health, schemas), parsed as JSON. */
export async function get<T>(path: string): Promise<T> {
  const response = await fetch(path, { headers: { 'x-lore-token': token } });
  const body = (await response.json()) as unknown;
  if (!response.ok) throw new OpError(response.status, (body as { error: ApiErrorBody }).error);
  return body as T;
}

/** A JSON Schema, bundled into one document (no $ref outside it): `knowledge-entry.schema.json`. */
export function schema(file: string): Promise<Record<string, unknown>> {
  return get(`/api/schemas/${file}`);
}

type Listener = (event: StoreEvent) => void;
const listeners = new Set<Listener>();
let source: EventSource | undefined;

/** Listens to the store's events for as long as `listener` is subscribed; returns the unsubscribe. */
export function subscribe(listener: Listener): () => void {
  listeners.add(listener);
  if (source === undefined) {
    source = new EventSource('/api/events');
    for (const type of ['change', 'watcher', 'hello'] as const) {
      source.addEventListener(type, (message) => {
        const event = { type, ...(JSON.parse((message as MessageEvent<string>).data) as object) } as StoreEvent;
        for (const l of listeners) l(event);
      });
    }
  }
  return () => {
    listeners.delete(listener);
  };
}

/** A component's subscription to the store's events (for as long as it is mounted). */
export function useStoreEvents(listener: Listener, deps: readonly unknown[] = []): void {
  useEffect(() => subscribe(listener), deps);
}
