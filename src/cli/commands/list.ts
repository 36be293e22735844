import { UsageError } from '../../errors.js';
import { isEmptyFilter, matchesFilter } from '../../knowledge/filter.js';
import { loadUsageStats, NO_USAGE, type UsageStats } from '../../knowledge/stats.js';
import { ENTRY_KINDS, KINDS, RECORD_KINDS, type RecordKindName } from '../../store/layout.js';
import { readRecordsCached } from '../../indexer/record-cache.js';
import type { StoreRecord } from '../../store/read.js';
import type { AllowRecord, GateProfile, GraphEntityRecord, ImplementationMode, KnowledgeEntry, ProjectOverrides, RoleConstraints } from '../../types.js';
import { defineCommand } from '../command.js';
import { plural, table } from '../format.js';
import { FILTER_OPTIONS, filterFromFlags, usageText } from '../_knowledge.js';

const KIND_WORDS: Record<string, readonly RecordKindName[]> = {
  entries: ENTRY_KINDS,
  knowledge: ENTRY_KINDS,
  graph: ['entity'],
};
for (const kind of RECORD_KINDS) {
  KIND_WORDS[kind] = [kind];
  const last = KINDS[kind].label.split(' ').pop()!;
  if (last !== 'records') KIND_WORDS[last] ??= [kind];
  KIND_WORDS[`${kind}s`] ??= [kind];
}

/** The record kinds a word names: `prohibitions`, `gates`, `entries`, ... */
export function kindsFor(word: string): readonly RecordKindName[] {
  const kinds = KIND_WORDS[word.toLowerCase()];
  if (kinds === undefined) throw new UsageError(`unknown kind "${word}"`, `kinds: ${Object.keys(KIND_WORDS).filter((w) => w.endsWith('s') || w === 'pending' || w === 'knowledge' || w === 'graph').join(', ')}`);
  return kinds;
}

/** Whether a kind holds knowledge entries. */
export const isEntryKind = (kind: RecordKindName): boolean => (ENTRY_KINDS as readonly string[]).includes(kind);

const pct = (n: number | undefined): string => (n === undefined ? '?' : `${Math.round(n * 100)}%`);

/** One line describing a record, for lists. */
export function summarise(record: StoreRecord): string {
  switch (record.kind) {
    case 'role': {
      const r = record.value as RoleConstraints;
      return `${r.role}: ${r.must_do.length} must do, ${r.must_not_do.length} must not do, ${r.ask_before.length} ask before, ${r.escalate_when.length} escalate when`;
    }
    case 'gate': {
      const g = record.value as GateProfile;
      const parts = [
        g.arch_review_required ? `arch review >= ${g.arch_review_threshold}` : 'no arch review',
        g.coverage_required ? `coverage >= ${pct(g.coverage_threshold)}` : 'no coverage',
        g.tests_required ? (g.tests_must_pass ? 'tests must pass' : 'tests run') : 'no tests',
      ];
      return `${g.task_type} ${g.complexity_range.join('-')}: ${parts.join(', ')}`;
    }
    case 'mode': {
      const m = record.value as ImplementationMode;
      return `${m.mode} ${m.complexity_range.join('-')}, ${m.ceremony_level} ceremony: ${m.when_to_use.slice(0, 2).join(', ')}`;
    }
    case 'override': {
      const o = record.value as ProjectOverrides;
      const roles = Object.keys(o.role_constraints ?? {});
      const gates = Object.keys(o.quality_gate_configs ?? {});
      return `project ${record.id}: ${roles.length > 0 ? `roles ${roles.join(', ')}` : 'no role additions'}; ${gates.length > 0 ? `gates ${gates.join(', ')}` : 'no gate overrides'}`;
    }
    case 'allow': {
      const a = record.value as AllowRecord;
      return `allows ${a.entry} on ${a.paths.join(', ')}${a.expires === undefined ? '' : ` until ${a.expires}`}: ${a.reason}`;
    }
    case 'entity': {
      const e = record.value as GraphEntityRecord;
      return `${e.type}${e.description ? `: ${e.description}` : ''}`;
    }
    default: {
      const e = record.value as KnowledgeEntry;
      return `[${e.priority}${e.enabled ? '' : ', disabled'}] ${e.title}`;
    }
  }
}

export const command = defineCommand({
  name: 'list',
  summary: 'list records, optionally of one kind',
  usage: '[kind] [options]',
  description: [
    'Kinds: recommendations, prohibitions, learnings, pending, entries (all four), roles, gates, modes, overrides, entities.',
    'The filters select knowledge entries (and imply the kind entries); knowledge entries show their usage',
    'statistics, aggregated from log/applications.ndjson.',
  ].join('\n'),
  options: { ...FILTER_OPTIONS },
  positionals: [0, 1],
  examples: ['lore list', 'lore list prohibitions', 'lore list gates --json', 'lore list --type prohibition --priority critical --text env', 'lore list entries --project shop --valid-at 2026-06-01'],
  async run(ctx) {
    const store = await ctx.openStore();
    const filter = filterFromFlags(ctx);
    const filtered = !isEmptyFilter(filter);
    const kinds = ctx.args[0] === undefined ? (filtered ? ENTRY_KINDS : RECORD_KINDS) : kindsFor(ctx.args[0]);
    if (filtered && kinds.some((k) => !isEntryKind(k))) throw new UsageError('the filters select knowledge entries only', `list entries, recommendations, prohibitions, learnings or pending with them`);
    const result = await readRecordsCached(store.root, { kinds, limits: store.config.limits });
    if (result.problems.some((p) => p.severity === 'error')) {
      ctx.note(ctx.style.yellow(`warning: ${plural(result.problems.filter((p) => p.severity === 'error').length, 'problem')} in the store; invalid files are left out (run "lore validate")`));
    }
    const records = result.records.filter((r) => !isEntryKind(r.kind) || matchesFilter(r.value as KnowledgeEntry, filter));
    const usage = kinds.some(isEntryKind) ? (await loadUsageStats(store.root)).stats : new Map<string, UsageStats>();
    const statsOf = (r: StoreRecord): UsageStats | undefined => (isEntryKind(r.kind) ? (usage.get(r.id) ?? NO_USAGE) : undefined);
    if (ctx.json) {
      ctx.printJson(records.map((r) => ({ kind: r.kind, id: r.id, file: r.file, value: r.value, ...(statsOf(r) === undefined ? {} : { stats: statsOf(r) }) })));
      return;
    }
    if (records.length === 0) {
      ctx.print(`no ${kinds.map((k) => KINDS[k].label).join(', ')}${filtered ? ' match the filters' : ''} in ${store.root}/.knowledge`);
      return;
    }
    ctx.print(table(records.map((r) => {
      const stats = statsOf(r);
      return [r.kind, r.id, summarise(r) + (stats === undefined || stats.timesApplied === 0 ? '' : ` (${usageText(stats)})`)];
    }), ctx.columns));
  },
});
