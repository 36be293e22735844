// `lore diff BASE...HEAD`: what changed in .knowledge/ between two refs, in knowledge terms, with
// the changes that weaken enforcement flagged and listed first.
import { isDeepStrictEqual } from 'node:util';
import type { Problem } from '../errors.js';
import { LOCK_PATH, pinnedSourceRecords } from '../extends/sources.js';
import { git } from '../git/exec.js';
import { readAtRef } from '../git/objects.js';
import { GitRecordCache, readGitRecordsAt, type GitRecords } from '../indexer/git-records.js';
import { KNOWLEDGE_DIR, RECORD_KINDS, type RecordKindName } from '../store/layout.js';
import type { StoreRecord } from '../store/read.js';
import { priorityRank } from '../priority.js';
import type { LoreConfig, Priority } from '../types.js';
import { repoRoot } from './_evaluate.js';
import { resolveRange } from './range.js';
import { byText } from '../text-order.js';

export type Risk = 'weakens' | 'strengthens' | 'neutral';

export interface FieldChange {
  field: string;
  before: unknown;
  after: unknown;
  risk: Risk;
  /** Plain words: "priority lowered from critical to high". */
  summary: string;
}

export interface RecordChange {
  kind: RecordKindName;
  id: string;
  /** The extends source the record comes from (absent for the store's own). */
  source?: string;
  title: string;
  change: 'added' | 'removed' | 'changed';
  risk: Risk;
  fields: FieldChange[];
}

export interface KnowledgeDiff {
  spec: string;
  base: string;
  head: string;
  records: RecordChange[];
  config: FieldChange[];
  /** Lines appended to logs (turn states, thought log, usage), per file. */
  logs: Array<{ file: string; added: number; removed: number }>;
  /** Problems at the head that the base did not have. */
  newProblems: Problem[];
  /** Extends sources whose pin moved (or that were pinned or unpinned): their records' changes are in `records`. */
  sources: Array<{ name: string; before: string | null; after: string | null }>;
}

const show = (v: unknown): string => (v === undefined ? '(none)' : typeof v === 'string' ? v : JSON.stringify(v));

function titleOf(record: StoreRecord): string {
  const v = record.value as Record<string, unknown>;
  if (record.kind === 'allow') return `allows ${String(v.entry)} on ${(v.paths as string[]).join(', ')} (${String(v.reason)})`;
  // Roles, gates, modes, overrides and entities are named by their id alone.
  return typeof v.title === 'string' ? v.title : record.id;
}

/** How a field change affects enforcement, for the kinds where direction is clear. */
function judge(kind: RecordKindName, field: string, before: unknown, after: unknown): { risk: Risk; summary: string } {
  const items = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
  const lost = items(before).filter((x) => !items(after).some((y) => isDeepStrictEqual(x, y)));
  const gained = items(after).filter((x) => !items(before).some((y) => isDeepStrictEqual(x, y)));
  const changed = `${field} changed from ${show(before)} to ${show(after)}`;
  if (kind === 'prohibition') {
    if (field === 'priority') {
      const up = priorityRank(after as Priority) > priorityRank(before as Priority);
      return { risk: up ? 'strengthens' : 'weakens', summary: `priority ${up ? 'raised' : 'lowered'} from ${show(before)} to ${show(after)}` };
    }
    if (field === 'enabled') return { risk: after === false ? 'weakens' : 'strengthens', summary: after === false ? 'disabled' : 'enabled' };
    if (['patterns', 'globs', 'content', 'keywords'].includes(field)) {
      if (lost.length > 0) return { risk: 'weakens', summary: `${field} removed: ${lost.map(show).join(', ')}${gained.length > 0 ? `; added: ${gained.map(show).join(', ')}` : ''}` };
      return { risk: 'strengthens', summary: `${field} added: ${gained.map(show).join(', ')}` };
    }
    if (field === 'validUntil' && after !== undefined) return { risk: 'weakens', summary: `now expires ${show(after)}` };
    if (field === 'scope' && after !== 'global') return { risk: 'weakens', summary: `scope narrowed from ${show(before)} to ${show(after)}` };
  }
  if (kind === 'gate') {
    if (typeof before === 'number' && typeof after === 'number') return { risk: after < before ? 'weakens' : 'strengthens', summary: `${field} ${after < before ? 'lowered' : 'raised'} from ${before} to ${after}` };
    if (typeof before === 'boolean' && typeof after === 'boolean') return { risk: after ? 'strengthens' : 'weakens', summary: `${field} turned ${after ? 'on' : 'off'}` };
  }
  if (kind === 'role' || kind === 'override') {
    if (lost.length > 0 && (field.startsWith('must') || field.startsWith('escalate') || field.startsWith('ask'))) return { risk: 'weakens', summary: `${field} lost: ${lost.map(show).join('; ')}` };
  }
  if (kind === 'entity' && field === 'relationships') {
    const edge = (r: unknown): string => `-${(r as { type: string }).type}-> ${(r as { to: string }).to}`;
    return { risk: 'neutral', summary: [gained.length > 0 ? `relationships added: ${gained.map(edge).join(', ')}` : '', lost.length > 0 ? `relationships removed: ${lost.map(edge).join(', ')}` : ''].filter(Boolean).join('; ') };
  }
  if (kind === 'allow' && field === 'paths' && gained.length > 0) return { risk: 'weakens', summary: `now also allows ${gained.map(show).join(', ')}` };
  if (kind === 'allow' && field === 'expires') return { risk: after === undefined || String(after) > String(before) ? 'weakens' : 'strengthens', summary: changed };
  return { risk: 'neutral', summary: changed };
}

function compareFields(kind: RecordKindName, before: Record<string, unknown>, after: Record<string, unknown>, prefix = ''): FieldChange[] {
  const out: FieldChange[] = [];
  for (const field of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (['updatedAt', 'createdAt'].includes(field) || isDeepStrictEqual(before[field], after[field])) continue;
    const [b, a] = [before[field], after[field]];
    // Overrides and config nest: compare their sections field by field.
    if (kind === 'override' && b !== null && a !== null && typeof b === 'object' && typeof a === 'object' && !Array.isArray(b)) {
      out.push(...compareFields(kind, b as Record<string, unknown>, a as Record<string, unknown>, `${prefix}${field}.`));
      continue;
    }
    out.push({ field: prefix + field, before: b, after: a, ...judge(kind, field, b, a) });
  }
  return out;
}

const WEAKENING_CONFIG: Record<string, (before: unknown, after: unknown) => boolean> = {
  'pre_task_check.enabled': (_b, a) => a === false,
  'pre_task_check.block_on_critical': (_b, a) => a === false,
  'capture.require_approval': (_b, a) => a === false,
};

/** The settings as dotted keys: matching.keyword_boost → 1.5. */
function flatten(config: LoreConfig): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [section, value] of Object.entries(config)) {
    if (value !== null && typeof value === 'object') for (const [field, v] of Object.entries(value)) out.set(`${section}.${field}`, v);
    else out.set(section, value);
  }
  return out;
}

function compareConfig(before: LoreConfig, after: LoreConfig): FieldChange[] {
  const [b, a] = [flatten(before), flatten(after)];
  const out: FieldChange[] = [];
  for (const name of new Set([...b.keys(), ...a.keys()])) {
    const [fb, fa] = [b.get(name), a.get(name)];
    if (isDeepStrictEqual(fb, fa)) continue;
    const weakens = WEAKENING_CONFIG[name]?.(fb, fa) ?? false;
    out.push({ field: name, before: fb, after: fa, risk: weakens ? 'weakens' : 'neutral', summary: `${name} changed from ${show(fb)} to ${show(fa)}` });
  }
  return out;
}

const sourceOf = (r: StoreRecord & { source?: string }): { source?: string } => (r.source === undefined ? {} : { source: r.source });

/** The entries of the extends sources pinned at `ref` (read from the fetched sources), and each source's pin. */
async function pinnedRecords(where: { cwd: string; env: NodeJS.ProcessEnv }, cache: GitRecordCache, ref: string, side: GitRecords): Promise<{ records: Array<StoreRecord & { blob: string; source: string }>; problems: Problem[]; pins: Map<string, string> }> {
  const text = await readAtRef(where, ref, LOCK_PATH);
  const read = await pinnedSourceRecords(where.cwd, cache, side.config, text?.toString('utf8'), APPLIED_KINDS_FOR_DIFF, where.env);
  return { records: read.records, problems: read.problems, pins: new Map((read.lock?.sources ?? []).map((p) => [p.name, p.commit])) };
}

/** The kinds a source contributes (its recommendations, prohibitions and learnings). */
const APPLIED_KINDS_FOR_DIFF = ['recommendation', 'prohibition', 'learning'] as const;

const RISK_ORDER: Record<Risk, number> = { weakens: 0, strengthens: 1, neutral: 2 };

/** Compares .knowledge/ at the merge base of BASE and HEAD with HEAD. */
export async function knowledgeDiff(options: { cwd: string; env: NodeJS.ProcessEnv; spec: string }): Promise<KnowledgeDiff> {
  const { root } = await repoRoot(options);
  const where = { cwd: root, env: options.env };
  const { mergeBase: base, head } = await resolveRange(where, options.spec);
  const cache = new GitRecordCache(root);
  const [before, after] = await readGitRecordsAt(where, cache, [{ ref: base }, { ref: head }], RECORD_KINDS);
  // The extends sources pinned on each side: a pin move is a knowledge change like an edit.
  const [pinsBefore, pinsAfter] = await Promise.all([base, head].map((ref) => pinnedRecords(where, cache, ref, ref === base ? before : after)));
  await cache.save();
  const key = (r: StoreRecord & { source?: string }): string => `${r.kind}\0${r.id}\0${r.source ?? ''}`;
  before.records.push(...pinsBefore!.records);
  after.records.push(...pinsAfter!.records);
  // A side whose sources cannot be read would make their changes look like none: said as problems.
  after.problems.push(...pinsAfter!.problems, ...pinsBefore!.problems.filter((p) => p.severity === 'error').map((p) => ({ ...p, message: `at the base: ${p.message}` })));
  const sources = [...new Set([...pinsBefore!.pins.keys(), ...pinsAfter!.pins.keys()])]
    .map((name) => ({ name, before: pinsBefore!.pins.get(name) ?? null, after: pinsAfter!.pins.get(name) ?? null }))
    .filter((s) => s.before !== s.after);
  const old = new Map(before.records.map((r) => [key(r), r]));
  const now = new Map(after.records.map((r) => [key(r), r]));
  const records: RecordChange[] = [];
  for (const [k, r] of now) {
    const was = old.get(k);
    if (was === undefined) {
      const risk: Risk = r.kind === 'allow' ? 'weakens' : r.kind === 'prohibition' || r.kind === 'gate' ? 'strengthens' : 'neutral';
      records.push({ kind: r.kind, id: r.id, ...sourceOf(r), title: titleOf(r), change: 'added', risk, fields: [] });
    } else if (!isDeepStrictEqual(was.value, r.value)) {
      const fields = compareFields(r.kind, was.value as Record<string, unknown>, r.value as Record<string, unknown>);
      if (fields.length === 0) continue;
      const risk = fields.reduce<Risk>((worst, f) => (RISK_ORDER[f.risk] < RISK_ORDER[worst] ? f.risk : worst), 'neutral');
      records.push({ kind: r.kind, id: r.id, ...sourceOf(r), title: titleOf(r), change: 'changed', risk, fields });
    }
  }
  for (const [k, r] of old) {
    if (now.has(k)) continue;
    const risk: Risk = ['prohibition', 'gate', 'role', 'override'].includes(r.kind) ? 'weakens' : 'neutral';
    records.push({ kind: r.kind, id: r.id, ...sourceOf(r), title: titleOf(r), change: 'removed', risk, fields: [] });
  }
  records.sort((a, b) => RISK_ORDER[a.risk] - RISK_ORDER[b.risk] || RECORD_KINDS.indexOf(a.kind) - RECORD_KINDS.indexOf(b.kind) || byText(a.id, b.id));
  // Plumbing, NUL-separated: no setting changes the paths or the counts.
  const numstat = await git(['--literal-pathspecs', 'diff-tree', '-r', '-z', '--numstat', '--no-renames', base, head, '--', `${KNOWLEDGE_DIR}/turns`, `${KNOWLEDGE_DIR}/log`], where);
  const logs = numstat.split('\0').filter(Boolean).map((entry) => {
    const [added, removed, file] = entry.split('\t');
    return { file: file!, added: Number(added), removed: Number(removed) };
  });
  const seen = new Set(before.problems.map((p) => `${p.file}\0${p.message}`));
  const newProblems = after.problems.filter((p) => !seen.has(`${p.file}\0${p.message}`));
  return { spec: options.spec, base, head, records, config: compareConfig(before.config, after.config), logs, newProblems, sources };
}
