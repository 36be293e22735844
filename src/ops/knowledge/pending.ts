import { listPending } from '../../knowledge/capture.js';
import { compare, fingerprint } from '../../knowledge/duplicates.js';
import { APPLIED_KINDS, loadEntries } from '../../knowledge/entries.js';
import type { KnowledgeEntry, KnowledgeType } from '../../types.js';
import { defineOp } from '../_define.js';
import { noteSkipped } from './_knowledge.js';
import { byText } from '../../text-order.js';

/** An existing entry a pending learning resembles. */
export interface SimilarEntry {
  id: string;
  type: KnowledgeType;
  title: string;
  similarity: number;
}

export interface PendingItem {
  id: string;
  file: string;
  value: KnowledgeEntry;
  similar?: SimilarEntry[];
}

const round = (n: number): number => Math.round(n * 1000) / 1000;

export const op = defineOp<{ similar?: number }, PendingItem[]>({
  name: 'learning.pending',
  async run(input, { ws, note }) {
    const store = await ws.store();
    const { records, problems } = await listPending(store);
    noteSkipped(note, problems);
    const items: PendingItem[] = records.map((r) => ({ id: r.id, file: r.file, value: r.value }));
    if (input.similar === undefined || items.length === 0) return items;
    // A reviewer decides with the entries it may repeat in view: every one at the threshold or above.
    const threshold = input.similar;
    const loaded = await loadEntries(store, APPLIED_KINDS);
    noteSkipped(note, loaded.problems);
    const existing = loaded.records.map((r) => ({ entry: r.value, print: fingerprint(r.value.title, r.value.description) }));
    for (const item of items) {
      const print = fingerprint(item.value.title, item.value.description);
      item.similar = existing
        .map(({ entry, print: other }) => ({ id: entry.id, type: entry.type, title: entry.title, similarity: round(compare(print, other)) }))
        .filter((s) => s.similarity >= threshold && s.similarity > 0)
        .sort((a, b) => b.similarity - a.similarity || byText(a.id, b.id));
    }
    return items;
  },
});
