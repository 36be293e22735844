// Checks across records, which no single file can reveal: duplicate ids, overlapping gate
// ranges, relationships to entities that do not exist, overrides of profiles that do not exist.
import type { Problem } from '../errors.js';
import type { GateOverride, GateProfile, GraphEntityRecord, ProjectOverrides } from '../types.js';
import { ENTRY_KINDS, type RecordKindName } from './layout.js';
import type { StoreRecord } from './read.js';

function byKind<T>(records: readonly StoreRecord[], kind: RecordKindName): StoreRecord<T>[] {
  return records.filter((r) => r.kind === kind) as StoreRecord<T>[];
}

/** Problems that involve more than one record. */
export function checkAcrossRecords(records: readonly StoreRecord[]): Problem[] {
  const problems: Problem[] = [];

  // One id, one file: the same id in two entry folders (or as x.yaml and x.yml) is ambiguous.
  const owners = new Map<string, StoreRecord[]>();
  for (const record of records) {
    const group = (ENTRY_KINDS as readonly string[]).includes(record.kind) ? 'entry' : record.kind;
    const key = `${group}\u0000${record.id}`;
    owners.set(key, [...(owners.get(key) ?? []), record]);
  }
  for (const group of owners.values()) {
    if (group.length < 2) continue;
    for (const record of group.slice(1)) {
      problems.push({ severity: 'error', file: record.file, pointer: '/id', message: `duplicate id ${JSON.stringify(record.id)}: ${group[0]!.file} has it too; ids must be unique` });
    }
  }

  // Gate profiles of one task type must not overlap, or resolution would be ambiguous.
  const gates = byKind<GateProfile>(records, 'gate');
  for (let i = 0; i < gates.length; i++) {
    for (let j = i + 1; j < gates.length; j++) {
      const a = gates[i]!.value;
      const b = gates[j]!.value;
      if (a.task_type === b.task_type && a.complexity_range[0] <= b.complexity_range[1] && b.complexity_range[0] <= a.complexity_range[1]) {
        problems.push({ severity: 'error', file: gates[j]!.file, pointer: '/complexity_range', message: `complexity_range [${b.complexity_range.join(', ')}] overlaps ${a.id} [${a.complexity_range.join(', ')}] for task type ${a.task_type}` });
      }
    }
  }

  // Overrides must name a profile that exists (in the store or among the defaults, checked by range here).
  const ranges = new Set(gates.map((g) => `${g.value.task_type}:${g.value.complexity_range.join('-')}`));
  for (const record of byKind<ProjectOverrides>(records, 'override')) {
    for (const [taskType, entry] of Object.entries(record.value.quality_gate_configs ?? {})) {
      entry?.overrides.forEach((override: GateOverride, index: number) => {
        if (gates.length > 0 && !ranges.has(`${taskType}:${override.complexity_range.join('-')}`)) {
          problems.push({ severity: 'warning', file: record.file, pointer: `/quality_gate_configs/${taskType}/overrides/${index}/complexity_range`, message: `no ${taskType} gate profile has complexity_range [${override.complexity_range.join(', ')}], so this override changes nothing` });
        }
      });
    }
  }

  // The graph must stay valid: a relationship to a missing entity is reported (and ignored when loaded).
  const entities = byKind<GraphEntityRecord>(records, 'entity');
  const names = new Set(entities.map((e) => e.value.name));
  for (const entity of entities) {
    entity.value.relationships?.forEach((rel, index) => {
      if (!names.has(rel.to)) {
        problems.push({ severity: 'warning', file: entity.file, pointer: `/relationships/${index}/to`, message: `relationship ${JSON.stringify(entity.value.name)} -${rel.type}-> ${JSON.stringify(rel.to)} points at an entity that does not exist; it is ignored` });
      }
    });
  }
  return problems;
}
