import { UsageError } from '../../errors.js';
import { ENTRY_KINDS, KINDS, RECORD_KINDS, type RecordKindName } from '../../store/layout.js';
import { readRecordsCached } from '../../indexer/record-cache.js';
import type { StoreRecord } from '../../store/read.js';
import type { AllowRecord, GateProfile, GraphEntityRecord, ImplementationMode, KnowledgeEntry, ProjectOverrides, RoleConstraints } from '../../types.js';
import { defineCommand } from '../command.js';
import { plural, table } from '../format.js';

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
  description: 'Kinds: recommendations, prohibitions, learnings, pending, entries (all four), roles, gates, modes, overrides, entities.',
  options: {},
  positionals: [0, 1],
  examples: ['lore list', 'lore list prohibitions', 'lore list gates --json'],
  async run(ctx) {
    const store = await ctx.openStore();
    const kinds = ctx.args[0] === undefined ? RECORD_KINDS : kindsFor(ctx.args[0]);
    const result = await readRecordsCached(store.root, { kinds, limits: store.config.limits });
    if (result.problems.some((p) => p.severity === 'error')) {
      ctx.note(ctx.style.yellow(`warning: ${plural(result.problems.filter((p) => p.severity === 'error').length, 'problem')} in the store; invalid files are left out (run "lore validate")`));
    }
    if (ctx.json) {
      ctx.printJson(result.records.map((r) => ({ kind: r.kind, id: r.id, file: r.file, value: r.value })));
      return;
    }
    if (result.records.length === 0) {
      ctx.print(`no ${kinds.map((k) => KINDS[k].label).join(', ')} in ${store.root}/.knowledge`);
      return;
    }
    ctx.print(table(result.records.map((r) => [r.kind, r.id, summarise(r)]), ctx.columns));
  },
});
