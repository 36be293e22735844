// Rules a schema cannot express, checked on every record after its schema passed: the file name
// matches the id, an entry sits in the folder of its type, regexes and globs compile, ranges are ordered.
import { LoreError } from '../errors.js';
import { globProblem } from '../match/glob.js';
import { regexProblem } from '../match/regex.js';
import { fieldPath, isRealDate, type SchemaIssue } from '../schema/validate.js';
import type { AllowRecord, GateOverride, GateProfile, GraphEntityRecord, ImplementationMode, KnowledgeEntry, PathConstraint, ProjectOverrides, RoleConstraints } from '../types.js';
import { KINDS, type RecordKindName } from './layout.js';
import { validFromTime, validUntilTime } from './validity.js';

const issue = (pointer: string, message: string, atKey = false): SchemaIssue => ({ pointer, locatePointer: pointer, atKey, message });

function checkPatterns(issues: SchemaIssue[], field: string, values: readonly string[] | undefined, problem: (s: string) => string | undefined): void {
  values?.forEach((value, index) => {
    const reason = problem(value);
    if (reason !== undefined) issues.push(issue(`/${field}/${index}`, `${field}[${index}] ${JSON.stringify(value)} ${reason}`));
  });
}

function checkRange(issues: SchemaIssue[], pointer: string, range: readonly [number, number]): boolean {
  if (range[0] > range[1]) {
    issues.push(issue(pointer, `complexity_range [${range[0]}, ${range[1]}] is reversed: the low end must come first`));
    return false;
  }
  return true;
}

function checkPathConstraints(issues: SchemaIssue[], field: string, items: ReadonlyArray<string | PathConstraint> | undefined): void {
  items?.forEach((item, index) => {
    if (typeof item === 'string') return;
    item.paths.forEach((glob, g) => {
      const reason = globProblem(glob);
      const pointer = `/${field}/${index}/paths/${g}`;
      if (reason !== undefined) issues.push(issue(pointer, `${fieldPath(pointer)} ${JSON.stringify(glob)} ${reason}`));
    });
  });
}

function checkEntry(kind: RecordKindName, entry: KnowledgeEntry, issues: SchemaIssue[]): void {
  const expected = kind === 'pending' ? 'learning' : kind;
  if (entry.type !== expected) {
    const where = KINDS[kind].dir;
    issues.push(issue('/type', kind === 'pending'
      ? `type is "${entry.type}", but ${where}/ holds only captured learnings (type learning)`
      : `type is "${entry.type}", but the file is in ${where}/; move it to the folder of its type or change the type`));
  }
  if (entry.scope === 'project' && entry.projectId === undefined) issues.push(issue('', 'scope is project, so projectId is required'));
  if (entry.scope === 'agent_type' && (entry.agentTypes === undefined || entry.agentTypes.length === 0)) issues.push(issue('', 'scope is agent_type, so agentTypes must list at least one agent type'));
  for (const field of ['validFrom', 'validUntil'] as const) {
    const value = entry[field];
    if (value !== undefined && (!isRealDate(value) || Number.isNaN(Date.parse(value)))) issues.push(issue(`/${field}`, `${field} ${JSON.stringify(value)} is not a real date`));
  }
  if (entry.validFrom !== undefined && entry.validUntil !== undefined && validFromTime(entry.validFrom) > validUntilTime(entry.validUntil)) {
    issues.push(issue('/validUntil', `validUntil (${entry.validUntil}) is before validFrom (${entry.validFrom}): the entry could never apply`));
  }
  checkPatterns(issues, 'patterns', entry.patterns, regexProblem);
  checkPatterns(issues, 'content', entry.content, regexProblem);
  checkPatterns(issues, 'globs', entry.globs, globProblem);
}

/** Checks one record whose schema already passed; `stem` is its file name without extension. */
export function checkRecord(kind: RecordKindName, value: unknown, stem: string): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  const spec = KINDS[kind];
  const id = spec.idField === undefined ? stem : String((value as Record<string, unknown>)[spec.idField]);
  let expected: string | undefined;
  try {
    expected = spec.stem(id);
  } catch (error) {
    // The schema's id pattern passed, but the id cannot be a file name (a Windows device name).
    if (!(error instanceof LoreError)) throw error;
    issues.push(issue(spec.idField === undefined ? '' : `/${spec.idField}`, spec.idField === undefined ? `the file name ${stem}.yaml is not allowed: ${error.message.replace(/^id "[^"]*" is not allowed: /, '')}` : error.message));
  }
  if (spec.idField !== undefined && expected !== undefined && expected !== stem) {
    issues.push(issue(`/${spec.idField}`, `the file name ${stem}.yaml does not match its ${spec.idField} ${JSON.stringify(id)}: rename the file to ${expected}.yaml or change the ${spec.idField}`));
  }
  switch (kind) {
    case 'recommendation':
    case 'prohibition':
    case 'learning':
    case 'pending':
      checkEntry(kind, value as KnowledgeEntry, issues);
      break;
    case 'role': {
      const role = value as RoleConstraints;
      if (role.id !== `ROLE-${role.role}`) issues.push(issue('/id', `id must be ROLE-${role.role} for role ${role.role} (found ${JSON.stringify(role.id)})`));
      checkPathConstraints(issues, 'must_not_do', role.must_not_do);
      break;
    }
    case 'gate': {
      const gate = value as GateProfile;
      const [lo, hi] = gate.complexity_range;
      if (checkRange(issues, '/complexity_range', gate.complexity_range) && gate.id !== `QG-${gate.task_type}-${lo}-${hi}`) {
        issues.push(issue('/id', `id must be QG-${gate.task_type}-${lo}-${hi} for this task type and range (found ${JSON.stringify(gate.id)})`));
      }
      break;
    }
    case 'mode': {
      const mode = value as ImplementationMode;
      checkRange(issues, '/complexity_range', mode.complexity_range);
      if (mode.id !== `MODE-${mode.mode}`) issues.push(issue('/id', `id must be MODE-${mode.mode} for mode ${mode.mode} (found ${JSON.stringify(mode.id)})`));
      break;
    }
    case 'override': {
      const overrides = value as ProjectOverrides;
      if (overrides.project !== undefined && overrides.project !== stem) {
        issues.push(issue('/project', `project is ${JSON.stringify(overrides.project)}, but the file is ${stem}.yaml: overrides are found by file name`));
      }
      for (const [role, additions] of Object.entries(overrides.role_constraints ?? {})) {
        checkPathConstraints(issues, `role_constraints/${role}/must_not_do_additions`, additions?.must_not_do_additions);
      }
      for (const [taskType, entry] of Object.entries(overrides.quality_gate_configs ?? {})) {
        entry?.overrides.forEach((override: GateOverride, index: number) => checkRange(issues, `/quality_gate_configs/${taskType}/overrides/${index}/complexity_range`, override.complexity_range));
      }
      break;
    }
    case 'allow': {
      const allow = value as AllowRecord;
      checkPatterns(issues, 'paths', allow.paths, globProblem);
      break;
    }
    case 'entity': {
      const entity = value as GraphEntityRecord;
      const seen = new Set<string>();
      entity.relationships?.forEach((rel, index) => {
        const key = `${rel.to}\u0000${rel.type}`;
        if (seen.has(key)) issues.push(issue(`/relationships/${index}`, `relationships[${index}] repeats the relationship ${JSON.stringify(entity.name)} -${rel.type}-> ${JSON.stringify(rel.to)}; merge their properties into one`));
        seen.add(key);
      });
      break;
    }
  }
  return issues;
}
