// What every commit-guard check shares: reading both sides' rules, scanning, the role guard,
// suppressions. The rules are the union of those already committed and those in the change, so
// a change can add a rule that binds itself but never weaken one to let itself through.
import type { Problem } from '../errors.js';
import { LoreError } from '../errors.js';
import { join, resolve } from 'node:path';
import { keepEngineCode, saveEngineCode } from '../match/regex.js';
import { readAtRef, readBlobs } from '../git/objects.js';
import { LOCK_PATH, pinnedSourceRecords } from '../extends/sources.js';
import { GitRecordCache, listGitSources, readGitListings, type GitListing, type GitRecords, type GitSource } from '../indexer/git-records.js';
import type { StoreRecord } from '../store/read.js';
import type { AllowRecord, KnowledgeEntry } from '../types.js';
import { priorityRank } from '../priority.js';
import { GUARD_KINDS, readTopLevel, type TopLevel } from './hook-git.js';
import { CACHE_DIR, KINDS, KNOWLEDGE_DIR } from '../store/layout.js';
import { isRecordName } from '../store/record-files.js';
import { readGitContext, resolveRole, roleFindings, roleRules, type GitContext, type KnownRole } from './role.js';
import { RuleSnapshot } from './rule-snapshot.js';
import { appliedVersions, compileTable, ruleTable, unionVersions, type CompiledRules, type RuleOrigin, type RuleVersion } from './rules.js';
import { scan, type ChangeSet, type Finding, type Scanned } from './scan.js';
export type { Finding, Scanned };
import { applySuppressions, type Outcome } from './suppress.js';
import { byText } from '../text-order.js';
export type { Outcome };


export interface CheckOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  now?: Date;
  /** Fingerprints of findings to ignore (lore check --baseline). */
  baseline?: ReadonlySet<string>;
  /** Called per commit read and per commit scanned of a range (for a progress line). */
  onProgress?: (done: number, total: number, what: string) => void;
}

export interface CheckReport {
  mode: 'staged' | 'range' | 'files';
  root: string;
  range?: { spec: string; base: string; head: string; mergeBase: string; commits: string[] };
  scanned: Scanned;
  /** How many prohibitions applied, and how many of those the change itself added or changed. */
  rules: { applied: number; fromChange: number };
  project: string | undefined;
  role: KnownRole | undefined;
  outcome: Outcome;
  /** Knowledge files in the change that do not parse or validate: each blocks the change. */
  invalid: Problem[];
  /** A critical finding is active, or the change's knowledge is invalid: the commit (or range) is refused. */
  blocked: boolean;
}

export type Where = { cwd: string; env: NodeJS.ProcessEnv };

/** Fails closed: a store the guard cannot read blocks the commit (exit 2), with the problems. */
export function failOnProblems(problems: readonly Problem[]): void {
  // A file unchanged by the change is read on both sides: name each problem once.
  const errors = [...new Map(problems.filter((p) => p.severity === 'error').map((p) => [JSON.stringify([p.file, p.line, p.column, p.message]), p])).values()];
  if (errors.length > 0) {
    throw new LoreError('GUARD_FAILED', 'the commit guard cannot run: the knowledge it checks against is invalid', {
      problems: errors,
      hint: 'fix the files (lore validate), or skip the check visibly with LORE_SKIP=1',
    });
  }
}

function versions(records: ReadonlyArray<StoreRecord & { blob?: string }>, origin: RuleOrigin): RuleVersion[] {
  return records.filter((r) => r.kind === 'prohibition').map((r) => ({ entry: r.value as KnowledgeEntry, origin, file: r.file, ...(r.blob === undefined ? {} : { identity: r.blob }) }));
}

export function allowsOf(records: readonly StoreRecord[]): Array<{ record: AllowRecord; file: string }> {
  return records.filter((r) => r.kind === 'allow').map((r) => ({ record: r.value as AllowRecord, file: r.file }));
}

export interface Evaluation {
  /** Both sides' records other than prohibitions (allowlist records, roles, overrides) and config. */
  committed: GitRecords;
  change: GitRecords;
  /** Both sides' prohibitions, unioned. */
  rules: CompiledRules;
  changes: ChangeSet[];
  allowsFor: (finding: Finding) => Array<{ record: AllowRecord; file: string }>;
  lineText: (finding: Finding, line: number) => Promise<string | undefined>;
  /** Role, feature and committed turn logs, read while the change itself was read. */
  git: GitContext;
  /** Parses the change's knowledge files. */
  cache: GitRecordCache;
  /** Both sides' rules between runs, with each pattern's literal. */
  snapshot: RuleSnapshot;
  /** Problems of the knowledge the change brings (see knowledge-files.ts). */
  invalid: Problem[];
  /** Said with the report (readBothSides's notes). */
  notes?: readonly string[];
}

/** Applies the rules of both sides to the change sets and sorts the findings. */
export async function evaluate(where: Where, options: CheckOptions, input: Evaluation): Promise<Omit<CheckReport, 'mode' | 'root'>> {
  const now = options.now ?? new Date();
  const project = input.change.config.project ?? input.committed.config.project;
  const role = await resolveRole(where, input.git, project);
  // The project named on either side: a change that renames the project in config.yaml must not
  // leave the committed project's prohibitions (or role additions) behind.
  const projects = [...new Set([input.committed.config.project, input.change.config.project])];
  const { table } = input.rules;
  const applied = appliedVersions(table, projects.map((projectId) => ({ now, projectId, agentType: role?.role })));
  let count = 0;
  let fromChange = 0;
  applied.forEach((applies, v) => {
    count += applies;
    if (applies === 1 && table.origin[v] === 1) fromChange++;
  });
  const { findings, scanned } = scan(input.changes, compileTable(input.rules, applied, (name, literals) => input.snapshot.literalSet(name, literals)), options.onProgress);
  if (role !== undefined) {
    const records = [...input.committed.records, ...input.change.records];
    const rules = [...new Map(projects.flatMap((p) => roleRules(role.role, p, records)).map((rule) => [JSON.stringify(rule), rule])).values()];
    for (const change of input.changes) findings.push(...roleFindings(role, rules, change.files, change.commit));
  }
  await Promise.all([input.cache.save(), input.snapshot.save(), saveEngineCode()]);
  // Riskiest first, then by place, so reports read top-down.
  findings.sort((a, b) => priorityRank(b.priority) - priorityRank(a.priority) || byText(a.path, b.path) || (a.line ?? 0) - (b.line ?? 0));
  const outcome = await applySuppressions({ findings, allowsFor: input.allowsFor, now, lineText: input.lineText, ...(options.baseline === undefined ? {} : { baseline: options.baseline }) });
  outcome.notes.push(...(input.notes ?? []));
  const newAllows = allowsOf(input.change.records).filter((a) => !allowsOf(input.committed.records).some((c) => JSON.stringify(c.record) === JSON.stringify(a.record)));
  for (const { file } of newAllows) outcome.notes.push(`${file} is added or changed by this change; an allowlist record applies from the commit after the one that adds it`);
  return {
    scanned, project, role, outcome, invalid: input.invalid,
    rules: { applied: count, fromChange },
    blocked: input.invalid.length > 0 || outcome.active.some((f) => f.priority === 'critical'),
  };
}

/** Memoised reader of a finding's file, line by line: `fileOf` names the file (the same name, the same file) and reads it. */
export function lineReader(fileOf: (finding: Finding) => { key: string; read: () => Promise<Buffer | undefined> }): (finding: Finding, line: number) => Promise<string | undefined> {
  const files = new Map<string, Promise<string[] | undefined>>();
  return async (finding, line) => {
    const { key, read } = fileOf(finding);
    if (!files.has(key)) files.set(key, read().then((b) => b?.toString('utf8').split('\n')));
    return (await files.get(key))?.[line - 1];
  };
}

/** Lines of files as committed at a ref (`:` is the index). */
export function refLineReader(where: Where, refOf: (finding: Finding) => string): (finding: Finding, line: number) => Promise<string | undefined> {
  return lineReader((finding) => {
    const ref = refOf(finding);
    return { key: `${ref}\0${finding.path}`, read: () => readAtRef(where, ref === ':' ? '' : ref, finding.path) };
  });
}

/**
 * Where the check runs, or a clear error outside a repository. The regexes this process runs load
 * their engine with its code cache in the repository's .git/lore/ (which no clone or archive brings).
 */
export async function repoRoot(where: Where): Promise<TopLevel> {
  const top = await readTopLevel(where).catch(() => undefined);
  if (top === undefined) throw new LoreError('NOT_A_GIT_REPO', `${where.cwd} is not inside a git repository`);
  if (top.commonDir !== undefined) keepEngineCode(join(resolve(where.cwd, top.commonDir), 'lore', ENGINE_CODE));
  return top;
}

/** The regex engine's code cache, under .git/lore/. */
const ENGINE_CODE = 'regex-engine.code';

/** Said while the change checked keeps lore's cache in git: the guard then reads every rule afresh, commit after commit. */
export const TRACKED_CACHE_NOTE = `git tracks ${KNOWLEDGE_DIR}/${CACHE_DIR}/, so the guard uses nothing in it and reads every rule afresh each time: untrack it (git rm -r --cached ${KNOWLEDGE_DIR}/${CACHE_DIR}) and keep ${CACHE_DIR}/ in ${KNOWLEDGE_DIR}/.gitignore (lore doctor --fix adds it)`;

const cacheNotes = (snapshot: RuleSnapshot, notes: string[]): string[] => (snapshot.tracked ? [TRACKED_CACHE_NOTE, ...notes] : notes);

/**
 * Reads the guard's records on both sides (through the blob cache) and the git context. Fails
 * closed when the committed side is invalid (the guard cannot know the rules); the change side's
 * problems are returned: they block the change. `atHead`, for the staged change against HEAD, is
 * what git answered for the rule folders at HEAD when the change leaves every rule file as HEAD
 * has it (then it keys the snapshot, and a warm run lists no rule file), and whether HEAD has turn logs.
 */
export async function readBothSides(where: Where, top: TopLevel, committedAt: GitSource, changeAt: GitSource, atHead?: Promise<{ rules?: string; turns: boolean }>): Promise<{ committed: GitRecords; change: GitRecords; rules: CompiledRules; cache: GitRecordCache; snapshot: RuleSnapshot; git: GitContext; changeProblems: Problem[]; notes: string[] }> {
  const cache = new GitRecordCache(where.cwd);
  const gitContext = readGitContext(where, top.branch);
  // Awaited below, after the rules: a failure meanwhile is that await's to throw, not an unhandled rejection.
  gitContext.catch(() => undefined);
  const head = await atHead;
  let snapshot = head?.rules === undefined ? undefined : RuleSnapshot.forTrees(where.cwd, head.rules);
  let kept = snapshot?.kept();
  if (snapshot === undefined || kept === undefined) {
    const listings = await listGitSources(where, [committedAt, changeAt], GUARD_KINDS);
    snapshot ??= RuleSnapshot.open(where.cwd, listings);
    kept = snapshot.kept();
    if (kept === undefined) {
      const read = await readGitListings(where, cache, listings, GUARD_KINDS);
      const sides = await Promise.all(read.map((side, i) => withSources(where, cache, listings[i]!, side)));
      const split = splitRules(sides[0]!, sides[1]!);
      // Sides with problems are not remembered: a pin fetched later (lore sync) must be read then.
      if (!sides.some((side) => side.problems.some((p) => p.severity === 'error'))) snapshot.keep(split.sides, split.versions, split.rules.table, split.files);
      kept = split;
    }
  }
  const [committed, change] = kept.sides as [GitRecords, GitRecords];
  failOnProblems(committed.problems);
  const context = { ...(await gitContext), ...(head === undefined ? {} : { turnsAtHead: head.turns }) };
  const changeProblems = change.problems.filter((p) => p.severity === 'error');
  // In the hook, the working tree's prohibitions apply where git does not hold them yet: all of
  // them before .knowledge/ is committed or staged (right after lore init), and otherwise those of
  // its files neither side holds (a store committed in part must not turn the rest off).
  if ('index' in changeAt && changeProblems.length === 0) {
    if (!committed.exists && !change.exists) {
      const uncommitted = await uncommittedStore(where.cwd, where.env);
      if (uncommitted !== undefined) {
        const split = splitRules(uncommitted, change);
        return { committed: split.sides[0]!, change, rules: split.rules, cache, snapshot, git: context, changeProblems, notes: cacheNotes(snapshot, [UNCOMMITTED_NOTE]) };
      }
    } else {
      // Prohibitions in the working tree that neither side holds (a store committed in part, a rule
      // being written): they apply here too, so that a partial first commit turns nothing off; one
      // that cannot be read is a note, not a stop.
      const untracked = await untrackedProhibitions(where.cwd, new Set(kept.files));
      if (untracked !== undefined) {
        const notes = [...new Set(untracked.problems.map((p) => p.file))].map((file) => `a prohibition in the working tree was not applied: ${file} does not validate (lore validate says why)`);
        if (untracked.records.length === 0) return { committed, change, rules: kept.rules, cache, snapshot, git: context, changeProblems, notes: cacheNotes(snapshot, notes) };
        const { table, version } = kept.rules;
        const all = unionVersions(Array.from(table.origin, (_, v) => version(v)), versions(untracked.records, 'committed'));
        const one = untracked.records.length === 1;
        const [what, it, applies] = one ? ['1 prohibition in the working tree is', 'it', 'it applies'] : [`${untracked.records.length} prohibitions in the working tree are`, 'them', 'they apply'];
        const note = `${what} neither committed nor staged: ${applies} here (commit ${it} so that ${applies} for everyone, and in CI)`;
        return { committed, change, rules: { table: ruleTable(all), version: (v) => all[v]! }, cache, snapshot, git: context, changeProblems, notes: cacheNotes(snapshot, [note, ...notes]) };
      }
    }
  }
  return { committed, change, rules: kept.rules, cache, snapshot, git: context, changeProblems, notes: cacheNotes(snapshot, []) };
}

/** Both sides' prohibitions, unioned into one rule table, and the sides without them. */
function splitRules(committed: GitRecords, change: GitRecords): { sides: GitRecords[]; versions: RuleVersion[]; rules: CompiledRules; files: string[] } {
  const [before, after] = [versions(committed.records, 'committed'), versions(change.records, 'change')];
  const all = unionVersions(before, after);
  const sides = [committed, change].map((side) => ({ ...side, records: side.records.filter((r) => r.kind !== 'prohibition') }));
  // Every file a rule was read from, on either side: a rename keeps one version (the same blob) but two files.
  const files = [...new Set([...before, ...after].map((v) => v.file))];
  return { sides, versions: all, rules: { table: ruleTable(all), version: (v) => all[v]! }, files };
}

/**
 * A side's records with the prohibitions of the extends sources its lock pins (read from the
 * fetched sources, offline). The side's own record of the same id replaces a source's, except a
 * source's critical prohibition, which always applies beside it: weakening it locally takes an
 * allowlist record, as for any weakened rule. A lock that config.yaml does not match, or a pin not
 * fetched in this clone, is a problem of the side (it stops the guard, or blocks the change).
 */
async function withSources(where: Where, cache: GitRecordCache, listing: GitListing, side: GitRecords): Promise<GitRecords> {
  const lockFile = listing.files.find((f) => f.path === LOCK_PATH);
  const lockText = lockFile === undefined ? undefined : (await readBlobs(where, [lockFile.blob])).get(lockFile.blob)!.toString('utf8');
  const read = await pinnedSourceRecords(where.cwd, cache, side.config, lockText, ['prohibition'], where.env);
  return { ...side, records: withSourceRules(side.records, read.records), problems: [...side.problems, ...read.problems] };
}

/** A side's records with a source's prohibitions: those of an id the side lacks, and every critical one. */
function withSourceRules<R extends StoreRecord>(own: readonly R[], fromSources: readonly R[]): R[] {
  const ids = new Set(own.filter((r) => r.kind === 'prohibition').map((r) => r.id));
  return [...own, ...fromSources.filter((r) => !ids.has(r.id) || (r.value as KnowledgeEntry).priority === 'critical')];
}

const UNCOMMITTED_NOTE = '.knowledge/ is in the working tree but not yet committed: its prohibitions apply (commit .knowledge/ so that they apply for everyone)';

/**
 * The prohibitions of a `.knowledge/` that is neither committed nor staged: the first commits
 * after `lore init` (which writes the starter pack). They can only add findings (no allowlist
 * record or role is read from it), and an unreadable or invalid one stops the check, as the
 * committed side does.
 */
async function uncommittedStore(root: string, env: NodeJS.ProcessEnv): Promise<GitRecords | undefined> {
  const { lstatSync } = await import('node:fs');
  // lstat: a .knowledge that is a symlink, even a dangling one, is read and refused, not taken as absent.
  if (lstatSync(join(root, '.knowledge'), { throwIfNoEntry: false }) === undefined) return undefined;
  const [{ loadConfig }, { readRecords }, { readTextIfExists }] = await Promise.all([import('../store/open.js'), import('../store/read.js'), import('../fs/read-text.js')]);
  const { config, problems } = await loadConfig(root);
  const read = await readRecords(root, { kinds: ['prohibition'], limits: config.limits });
  failOnProblems([...problems, ...read.problems]);
  // The extends sources the working tree's lock pins apply too, as they will once committed.
  const sources = await pinnedSourceRecords(root, new GitRecordCache(root), config, await readTextIfExists(join(root, LOCK_PATH)), ['prohibition'], env);
  failOnProblems(sources.problems);
  return { exists: true, config, records: withSourceRules(read.records.map((record) => ({ ...record, blob: `working-tree:${record.file}` })), sources.records), problems: [] };
}

/**
 * The prohibitions of the working tree that are not among `known` (the files both sides' rules were
 * read from), and the problems of those it cannot read; undefined when there is none (a listing
 * of one folder, every commit). The committed config.yaml holds: the working tree's is not read.
 */
async function untrackedProhibitions(root: string, known: ReadonlySet<string>): Promise<{ records: Array<StoreRecord & { blob: string }>; problems: Problem[] } | undefined> {
  const { readdirSync } = await import('node:fs');
  const folder = `${KNOWLEDGE_DIR}/${KINDS.prohibition.dir}`;
  let names: string[];
  try {
    names = readdirSync(join(root, folder));
  } catch {
    return undefined; // no folder (or not one): no prohibition file in the working tree
  }
  const untracked = names.filter((name) => isRecordName(name) && !known.has(`${folder}/${name}`));
  if (untracked.length === 0) return undefined;
  const [{ loadConfig }, { readRecordFile }] = await Promise.all([import('../store/open.js'), import('../store/read.js')]);
  const { config } = await loadConfig(root);
  const read = await Promise.all(untracked.sort(byText).map((name) => readRecordFile(root, 'prohibition', join(root, folder, name), config.limits)));
  return {
    records: read.flatMap(({ record }) => (record === undefined ? [] : [{ ...record, blob: `working-tree:${record.file}` }])),
    problems: read.flatMap(({ problems }) => problems.filter((p) => p.severity === 'error')),
  };
}

/** Problems listed once, in order, whichever checks found them. */
export function uniqueProblems(problems: readonly Problem[]): Problem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${p.file}\0${p.line ?? ''}\0${p.pointer ?? ''}\0${p.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
