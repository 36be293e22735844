// What graph.apply and graph.import share: an update applied through the back-end, and its output.
import type { ApplyResult } from '../../graph/apply.js';
import type { GraphBackend } from '../../graph/backend.js';
import type { SavedFile } from '../../graph/store-graph.js';
import type { OpContext } from '../_define.js';
import { backendRef, change, type BackendRef } from './_graph.js';

/** What an applied update did, and the files it wrote. */
export interface ApplyOutput extends ApplyResult {
  backend: BackendRef;
  saved: SavedFile[];
}

/** Applies `update` (checked whole first: an invalid one changes nothing) on the back-end. */
export async function applyOn(ctx: OpContext, backend: GraphBackend, update: unknown, source: string | undefined): Promise<ApplyOutput> {
  const { result, saved } = await change(ctx, backend, (graph) => graph.applyUpdate(update, source === undefined ? {} : { source }));
  return { backend: backendRef(backend), ...result, saved };
}
