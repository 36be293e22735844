import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { LoreError, ValidationError } from '../../errors.js';
import { loadUsageStats, type UsageStats } from '../../knowledge/stats.js';
import { suggest } from '../../schema/suggest.js';
import { isValidId } from '../../store/ids.js';
import { KINDS, knowledgeDir, RECORD_KINDS, type EntryKindName, type RecordKindName } from '../../store/layout.js';
import { loadEntries } from '../../knowledge/entries.js';
import { readRecord, type StoreRecord } from '../../store/read.js';
import { defineOp } from '../_define.js';
import { isEntryKind, kindsFor, recordOutput, type RecordOutput } from './_records.js';

/** Kinds whose file could hold this id (graph entities accept any name). */
function candidateKinds(id: string): RecordKindName[] {
  if (!isValidId(id)) return ['entity'];
  if (id.startsWith('ROLE-')) return ['role'];
  if (id.startsWith('QG-')) return ['gate'];
  if (id.startsWith('MODE-')) return ['mode'];
  return RECORD_KINDS.filter((k) => k !== 'role' && k !== 'gate' && k !== 'mode');
}

async function knownIds(root: string): Promise<string[]> {
  const ids: string[] = [];
  for (const kind of RECORD_KINDS) {
    const names = await readdir(join(knowledgeDir(root), KINDS[kind].dir)).catch(() => [] as string[]);
    const prefix = { role: 'ROLE-', gate: 'QG-', mode: 'MODE-' }[kind as string] ?? '';
    ids.push(...names.map((n) => prefix + n.replace(/\.(yaml|yml|json)$/, '')));
  }
  return ids;
}

/** One record, or every record of that id when several kinds hold it. */
export const op = defineOp<{ id: string; kind?: string }, RecordOutput | RecordOutput[]>({
  name: 'record.show',
  async run(input, { ws }) {
    const store = await ws.store();
    const { id } = input;
    const kinds = input.kind === undefined ? candidateKinds(id) : kindsFor(input.kind);
    const found: StoreRecord[] = [];
    for (const kind of kinds) {
      if (kind !== 'entity' && !isValidId(id)) continue;
      const result = await readRecord(store.root, kind, id, store.config.limits);
      if (result === undefined) continue;
      if (result.record === undefined) throw new ValidationError(`the record ${id} is invalid`, result.problems, { hint: 'fix it, then run "lore validate"' });
      found.push(result.record);
    }
    // An entry of an extends source (the store's own came first).
    const entryKinds = kinds.filter(isEntryKind) as EntryKindName[];
    if (found.length === 0 && entryKinds.length > 0 && isValidId(id)) {
      const fromSource = (await loadEntries(store, entryKinds)).records.find((r) => r.id === id);
      if (fromSource !== undefined) found.push(fromSource);
    }
    if (found.length === 0) {
      const hint = suggest(id, await knownIds(store.root));
      throw new LoreError('NOT_FOUND', `no record with id ${JSON.stringify(id)}`, { hint: hint === undefined ? 'lore list shows every id' : `did you mean ${hint}?` });
    }
    // Knowledge entries come with their usage statistics, aggregated from log/applications.ndjson.
    const usage = found.some((r) => isEntryKind(r.kind)) ? (await loadUsageStats(store.root)).stats : new Map<string, UsageStats>();
    const out = found.map((r) => recordOutput(r, usage));
    return out.length === 1 ? out[0]! : out;
  },
});
