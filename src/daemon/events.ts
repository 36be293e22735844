// The daemon's events, fanned out to every open page (server-sent events on /api/events): which
// files and records changed, validation problems appearing or clearing, the watcher's state.
import type { Problem } from '../errors.js';

/** One record whose file changed (kind and id when the file holds a readable record). */
export interface RecordChange {
  path: string;
  kind?: string;
  id?: string;
  change: 'added' | 'changed' | 'removed';
}

export type DaemonEvent =
  | { type: 'change'; data: { paths: string[]; records: RecordChange[]; problems: { appeared: Problem[]; cleared: Problem[] }; by: 'watcher' | 'reconcile' } }
  | { type: 'watcher'; data: { state: string; message?: string } };

type Listener = (event: DaemonEvent) => void;

/** Subscribers to the daemon's events. */
export class EventHub {
  private readonly listeners = new Set<Listener>();

  /** Listens until the returned function is called. */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Sends an event to every subscriber. */
  publish(event: DaemonEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  /** How many pages listen. */
  get size(): number {
    return this.listeners.size;
  }
}
