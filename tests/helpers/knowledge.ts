// Fixtures for knowledge-base tests: complete entries from a few fields, and stores holding them.
import type { TestContext } from 'node:test';
import { openStore, type Store } from '../../src/store/open.js';
import { KINDS, type EntryKindName } from '../../src/store/layout.js';
import { renderRecord } from '../../src/store/write.js';
import type { KnowledgeEntry } from '../../src/types.js';
import { tempStore } from './temp.js';

export const CREATED = '2026-01-01T00:00:00.000Z';

/** A complete, valid entry: defaults for every required field the test does not care about. */
export function entry(fields: Partial<KnowledgeEntry> & Pick<KnowledgeEntry, 'id'>): KnowledgeEntry {
  const type = fields.type ?? (fields.id.startsWith('pro-') ? 'prohibition' : fields.id.startsWith('rec-') ? 'recommendation' : 'learning');
  return {
    type,
    title: `Title of ${fields.id}`,
    description: `Description of ${fields.id}.`,
    scope: 'global',
    keywords: [],
    priority: 'medium',
    source: 'manual',
    createdAt: CREATED,
    updatedAt: CREATED,
    createdBy: 'Test Author <author@example.com>',
    enabled: true,
    ...fields,
  };
}

/** The store files holding these entries (pending ones with `pending: true` in the tuple). */
export function entryFiles(entries: ReadonlyArray<KnowledgeEntry | [KnowledgeEntry, EntryKindName]>): Record<string, string> {
  const files: Record<string, string> = {};
  for (const item of entries) {
    const [value, kind] = Array.isArray(item) ? item : [item, item.type];
    files[`.knowledge/${KINDS[kind].dir}/${value.id}.yaml`] = renderRecord(kind, value);
  }
  return files;
}

/** Config text: version 1, project shop, and the given YAML sections. */
export function configYaml(extra = ''): string {
  return `version: 1\nproject: shop\n${extra}`;
}

/** A temp store holding the entries (and any other files), opened. */
export async function knowledgeStore(t: TestContext, entries: ReadonlyArray<KnowledgeEntry | [KnowledgeEntry, EntryKindName]>, options: { config?: string; files?: Record<string, string> } = {}): Promise<{ root: string; store: Store }> {
  const root = tempStore(t, { '.knowledge/config.yaml': configYaml(options.config), ...entryFiles(entries), ...options.files });
  return { root, store: await openStore({ cwd: root }) };
}
