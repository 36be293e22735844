import { DEFAULT_MAX_PAIRS, DEFAULT_SIMILARITY, findDuplicates, type SimilarPair } from '../../knowledge/duplicates.js';
import { loadEntries } from '../../knowledge/entries.js';
import type { KnowledgeType } from '../../types.js';
import { defineOp } from '../_define.js';
import { noteSkipped } from './_knowledge.js';

/** A similar pair with both titles, so it can be read without looking the ids up. */
export type TitledPair = SimilarPair & { aTitle: string; bTitle: string };

export interface DuplicatesOutput {
  threshold: number;
  /** How many entries were compared. */
  entries: number;
  pairs: TitledPair[];
  /** Pairs at the threshold past `max`, not listed. */
  unlisted: number;
}

export const op = defineOp<{ threshold?: number; types?: KnowledgeType[]; max?: number }, DuplicatesOutput>({
  name: 'knowledge.duplicates',
  async run(input, { ws, note, progress }) {
    const threshold = input.threshold ?? DEFAULT_SIMILARITY;
    const types = input.types ?? [];
    const { records, problems } = await loadEntries(await ws.store(), undefined, { onProgress: (done, total) => progress(done, total, 'reading entries') });
    noteSkipped(note, problems);
    const entries = records.map((r) => r.value).filter((e) => types.length === 0 || types.includes(e.type));
    const titles = new Map(entries.map((e) => [e.id, e.title]));
    const found = findDuplicates(entries, threshold, input.max ?? DEFAULT_MAX_PAIRS, progress);
    const pairs = found.pairs.map((p) => ({ ...p, aTitle: titles.get(p.a)!, bTitle: titles.get(p.b)! }));
    return { threshold, entries: entries.length, pairs, unlisted: found.found - pairs.length };
  },
});
