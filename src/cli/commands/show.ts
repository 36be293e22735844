import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { LoreError, ValidationError } from '../../errors.js';
import { isValidId } from '../../store/ids.js';
import { loadUsageStats, NO_USAGE, type UsageStats } from '../../knowledge/stats.js';
import { KINDS, knowledgeDir, RECORD_KINDS, type RecordKindName } from '../../store/layout.js';
import { readRecord, type StoreRecord } from '../../store/read.js';
import { renderRecord } from '../../store/write.js';
import { suggest } from '../../schema/suggest.js';
import { defineCommand } from '../command.js';
import { usageText } from '../_knowledge.js';
import { isEntryKind, kindsFor } from './list.js';

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

export const command = defineCommand({
  name: 'show',
  summary: 'show one record by id',
  usage: '<id> [options]',
  description: 'Finds the record with this id (or graph entity with this name) in any kind and prints its file.',
  options: {
    kind: { type: 'string', value: 'KIND', description: 'look only in this kind (prohibitions, gates, entities, ...)' },
  },
  positionals: [1, 1],
  examples: ['lore show pro-never-commit-env-files', 'lore show QG-feature-4-6 --json', 'lore show "Auth Service" --kind entities'],
  async run(ctx) {
    const store = await ctx.openStore();
    const id = ctx.args[0]!;
    const kinds = ctx.string('kind') === undefined ? candidateKinds(id) : kindsFor(ctx.string('kind')!);
    const found: StoreRecord[] = [];
    for (const kind of kinds) {
      if (kind !== 'entity' && !isValidId(id)) continue;
      const result = await readRecord(store.root, kind, id, store.config.limits);
      if (result === undefined) continue;
      if (result.record === undefined) throw new ValidationError(`the record ${id} is invalid`, result.problems, { hint: 'fix it, then run "lore validate"' });
      found.push(result.record);
    }
    if (found.length === 0) {
      const hint = suggest(id, await knownIds(store.root));
      throw new LoreError('NOT_FOUND', `no record with id ${JSON.stringify(id)}`, { hint: hint === undefined ? 'lore list shows every id' : `did you mean ${hint}?` });
    }
    // Knowledge entries come with their usage statistics, aggregated from log/applications.ndjson.
    const usage = found.some((r) => isEntryKind(r.kind)) ? (await loadUsageStats(store.root)).stats : new Map<string, UsageStats>();
    const statsOf = (r: StoreRecord): UsageStats | undefined => (isEntryKind(r.kind) ? (usage.get(r.id) ?? NO_USAGE) : undefined);
    if (ctx.json) {
      const out = found.map((r) => ({ kind: r.kind, id: r.id, file: r.file, value: r.value, ...(statsOf(r) === undefined ? {} : { stats: statsOf(r) }) }));
      ctx.printJson(out.length === 1 ? out[0] : out);
      return;
    }
    for (const record of found) {
      ctx.print(ctx.style.dim(`# ${record.file}`));
      ctx.print(renderRecord(record.kind, record.value).replace(/^# yaml-language-server:.*\n/, '').trimEnd());
      const stats = statsOf(record);
      if (stats !== undefined) ctx.print(ctx.style.dim(`# usage: ${usageText(stats)}`));
    }
  },
});
