import type { RecordOutput } from '../../ops/store/_records.js';
import type { StoreRecord } from '../../store/read.js';
import type { AllowRecord, GateProfile, GraphEntityRecord, ImplementationMode, KnowledgeEntry, ProjectOverrides, RoleConstraints } from '../../types.js';
import { defineOpCommand } from '../command.js';
import { table } from '../format.js';
import { FILTER_OPTIONS, filterInput, usageText } from '../_knowledge.js';

const pct = (n: number | undefined): string => (n === undefined ? '?' : `${Math.round(n * 100)}%`);

/** One line describing a record, for lists. */
export function summarise(record: Pick<StoreRecord, 'kind' | 'id' | 'value'>): string {
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

export const command = defineOpCommand<RecordOutput[]>({
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
  op: 'record.list',
  daemon: true,
  input(ctx) {
    const filter = filterInput(ctx);
    return { ...(ctx.args[0] === undefined ? {} : { kind: ctx.args[0] }), ...(Object.keys(filter).length === 0 ? {} : { filter }) };
  },
  async print(records, ctx) {
    if (records.length === 0) {
      const { KINDS, ENTRY_KINDS, RECORD_KINDS } = await import('../../store/layout.js');
      const { kindsFor } = await import('../../ops/store/_records.js');
      const filtered = Object.keys(filterInput(ctx)).length > 0;
      const kinds = ctx.args[0] === undefined ? (filtered ? ENTRY_KINDS : RECORD_KINDS) : kindsFor(ctx.args[0]);
      ctx.print(`no ${kinds.map((k) => KINDS[k].label).join(', ')}${filtered ? ' match the filters' : ''} in ${(await ctx.openStore()).root}/.knowledge`);
      return;
    }
    ctx.print(table(records.map((r) => [r.kind, r.id, summarise(r) + (r.stats === undefined || r.stats.timesApplied === 0 ? '' : ` (${usageText(r.stats)})`)]), ctx.columns));
  },
});
