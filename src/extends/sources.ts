// Org-wide knowledge through git: the sources config.yaml's `extends` lists, fetched by `lore sync`
// into bare repositories under .git/lore/extends/, and pinned in .knowledge/extends.lock
// (committed, like a lockfile). Everything else reads the pinned commits locally: nothing fetches on
// commit or query.
import { join, resolve } from 'node:path';
import { LoreError, type Problem } from '../errors.js';
import { git, gitOutcome } from '../git/exec.js';
import { listTree, type GitFile } from '../git/objects.js';
import { gitFileRole, parseGitFiles, type GitFileToParse, type GitRecordCache } from '../indexer/git-records.js';
import { EXTENDS_LOCK, KINDS, KNOWLEDGE_DIR, type RecordKindName } from '../store/layout.js';
import type { StoreRecord } from '../store/read.js';
import type { ExtendsLock, ExtendsPin, ExtendsSource, LoreConfig } from '../types.js';

/** Where the lock lives, relative to the repository root. */
export const LOCK_PATH = `${KNOWLEDGE_DIR}/${EXTENDS_LOCK}`;

/** A source with config.yaml's defaults filled in. */
export type ResolvedSource = Required<ExtendsSource>;

/** config.yaml's sources, defaults filled in (ref HEAD, path .knowledge). */
export function configuredSources(config: LoreConfig): ResolvedSource[] {
  return (config.extends ?? []).map((s) => ({ name: s.name, url: s.url, ref: s.ref ?? 'HEAD', path: (s.path ?? KNOWLEDGE_DIR).replace(/\/+$/, '') || '.' }));
}

/** The git common dir of each repository root (worktrees share it), asked once per process (once it is known). */
const commonDirs = new Map<string, Promise<string>>();

/**
 * The bare repository holding a source's fetched objects: inside git's own folder
 * (`.git/lore/extends/<name>.git`), which no clone, checkout or commit can bring, so its config
 * and hooks are lore's alone.
 */
export async function sourceRepo(root: string, name: string, env?: NodeJS.ProcessEnv): Promise<string> {
  let dir = commonDirs.get(root);
  if (dir === undefined) {
    dir = git(['rev-parse', '--git-common-dir'], { cwd: root, ...(env === undefined ? {} : { env }) }).then((out) => resolve(root, out.trim()));
    commonDirs.set(root, dir);
    // A failure is not kept: a long-lived process (lore serve) asks again next time.
    const asked = dir;
    asked.catch(() => commonDirs.get(root) === asked && commonDirs.delete(root));
  }
  return join(await dir, 'lore', 'extends', `${name}.git`);
}

/**
 * git options for a source's bare repository: GIT_DIR explicit (no setting about bare repositories
 * changes what is read), no replace refs (one could swap a pinned commit's tree).
 */
export async function sourceGit(root: string, name: string, env: NodeJS.ProcessEnv = process.env): Promise<{ cwd: string; env: NodeJS.ProcessEnv }> {
  const dir = await sourceRepo(root, name, env);
  return { cwd: dir, env: { ...env, GIT_DIR: dir, GIT_NO_REPLACE_OBJECTS: '1' } };
}

/** No hook of the cache repository runs, whatever is there. */
const NO_HOOKS = ['-c', 'core.hooksPath=/dev/null'];

/**
 * Where the lock and config.yaml disagree, each as a problem naming the source: a lock is only
 * trusted for exactly the sources config.yaml lists, in its order.
 */
export function lockProblems(config: LoreConfig, lock: ExtendsLock | undefined, lockFile: string): Problem[] {
  const wanted = configuredSources(config);
  const pins = lock?.sources ?? [];
  if (wanted.length === 0 && pins.length === 0) return [];
  if (lock === undefined) {
    return [{ severity: 'error', file: lockFile, message: `config.yaml extends ${wanted.map((s) => s.name).join(', ')} but ${lockFile} is missing: run lore sync and commit it` }];
  }
  const problems: Problem[] = [];
  for (const [file, names] of [['.knowledge/config.yaml', wanted.map((s) => s.name)], [lockFile, pins.map((p) => p.name)]] as const) {
    const twice = names.filter((name, i) => names.indexOf(name) !== i);
    if (twice.length > 0) problems.push({ severity: 'error', file, message: `names the source ${[...new Set(twice)].join(', ')} more than once: each source needs a name of its own` });
  }
  if (problems.length > 0) return problems;
  // Position by position: the lock pins exactly config.yaml's sources, in its order.
  for (let i = 0; i < Math.max(wanted.length, pins.length); i++) {
    const source = wanted[i];
    const pin = pins[i];
    let differs: string;
    if (source === undefined) differs = `source ${pin!.name} is not in config.yaml's extends`;
    else if (pin === undefined) differs = `source ${source.name} is not pinned`;
    else if (pin.name !== source.name) differs = `source ${source.name} is not pinned where config.yaml lists it (the lock has ${pin.name} there)`;
    else {
      const fields = (['url', 'ref', 'path'] as const).filter((k) => source[k] !== pin[k]).map((k) => `its ${k} is ${JSON.stringify(pin[k])} in the lock but ${JSON.stringify(source[k])} in config.yaml`);
      if (fields.length === 0) continue;
      differs = `source ${source.name}: ${fields.join(', ')}`;
    }
    problems.push({ severity: 'error', file: lockFile, message: `${differs}: run lore sync and commit ${lockFile}` });
  }
  return problems;
}

/** The text of a lock: JSON, sources in config.yaml's order, two-space indent, a final newline. */
export function lockText(pins: readonly ExtendsPin[]): string {
  const lock: ExtendsLock = { version: 1, sources: pins.map((p) => ({ name: p.name, url: p.url, ref: p.ref, path: p.path, commit: p.commit })) };
  return `${JSON.stringify(lock, null, 2)}\n`;
}

/** Parses and validates a lock's text (JSON against schemas/extends-lock.schema.json). */
export async function parseLock(text: string, file: string): Promise<{ lock?: ExtendsLock; problems: Problem[] }> {
  const { parseText, locateIssues } = await import('../store/parse.js');
  const { validateAgainst } = await import('../schema/validate.js');
  const parsed = parseText(text, file, undefined, { format: 'json' });
  if (parsed.value === undefined) return { problems: parsed.problems };
  const problems = [...parsed.problems, ...locateIssues(parsed, file, validateAgainst('extends-lock', parsed.value))];
  return problems.some((p) => p.severity === 'error') ? { problems } : { lock: parsed.value as ExtendsLock, problems };
}

/** Whether the pinned commit is in the source's bare repository (lore sync fetched it). */
export async function hasCommit(root: string, pin: ExtendsPin, env?: NodeJS.ProcessEnv): Promise<boolean> {
  const { existsSync } = await import('node:fs');
  if (!existsSync(join(await sourceRepo(root, pin.name, env), 'HEAD'))) return false;
  return (await gitOutcome(['cat-file', '-e', `${pin.commit}^{commit}`], await sourceGit(root, pin.name, env))).code === 0;
}

/** The error for a pin whose commit was never fetched here (a fresh clone): the guard refuses rather than pass without the source's rules. */
export function notFetched(pins: readonly ExtendsPin[], lockFile: string): Problem {
  return {
    severity: 'error', file: lockFile,
    message: `the pinned commit of ${pins.map((p) => `${p.name} (${p.commit.slice(0, 12)})`).join(', ')} is not fetched in this clone: run lore sync`,
  };
}

/** A fetch refused or failed, with git's words. */
function fetchError(source: ResolvedSource, detail: string): LoreError {
  return new LoreError('GIT', `could not fetch ${source.ref} of source ${source.name} from ${source.url}: ${detail}`, { hint: 'check the url and ref in .knowledge/config.yaml (lore extends list), and that this machine can reach it' });
}

/** Fetches `ref` of a source into its bare repository; returns the commit it names. */
export async function fetchSource(root: string, source: ResolvedSource, env?: NodeJS.ProcessEnv): Promise<string> {
  // A url from a committed config.yaml is untrusted: only the transports that fetch data, never
  // a remote helper (`ext::sh -c ...` runs a command) or an unknown scheme. Checked before anything is made.
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(source.url)?.[1]?.toLowerCase();
  if (/^[A-Za-z][A-Za-z0-9+.-]*::/.test(source.url) || (scheme !== undefined && !['https', 'http', 'ssh', 'git', 'file'].includes(scheme))) {
    throw new LoreError('USAGE', `source ${source.name}: ${source.url} is not a git URL lore fetches (https, ssh, git, file, user@host:path or a path)`, { hint: 'fix its url in .knowledge/config.yaml' });
  }
  const where = await sourceGit(root, source.name, env);
  const { mkdirSync, existsSync } = await import('node:fs');
  if (!existsSync(join(where.cwd, 'HEAD'))) {
    mkdirSync(where.cwd, { recursive: true });
    await git([...NO_HOOKS, 'init', '-q', '--bare', '--template=', where.cwd], where);
  }
  // A relative path is the repository holding .knowledge/'s neighbour, not the cache's.
  const url = scheme !== undefined || /^[^/]+@[^/]+:/.test(source.url) ? source.url : resolve(root, source.url);
  // No tags, no submodules, no remote helper, nothing run: objects only. `--` keeps a url or ref from reading as an option.
  const fetched = await gitOutcome([...NO_HOOKS, '-c', 'protocol.file.allow=always', '-c', 'protocol.ext.allow=never', 'fetch', '--no-tags', '--no-recurse-submodules', '--quiet', '--', url, source.ref], where);
  if (fetched.code !== 0) throw fetchError(source, fetched.output.trim().split('\n').slice(-3).join('; '));
  const commit = (await git(['rev-parse', '--verify', '--quiet', 'FETCH_HEAD^{commit}'], where)).trim();
  return commit;
}

/** Keeps a pinned commit from git's garbage collection in the cache repository. */
export async function keepCommit(root: string, pin: ExtendsPin, env?: NodeJS.ProcessEnv): Promise<void> {
  await git([...NO_HOOKS, 'update-ref', `refs/lore/pins/${pin.commit}`, pin.commit], await sourceGit(root, pin.name, env));
}

/** What `lore sync` did to one source. */
export interface SyncedSource {
  name: string;
  commit: string;
  /** The commit it was pinned to before, when it moved. */
  previous?: string;
  /** pinned: new in the lock; kept: the same commit; moved: --update (or a changed url, ref or path) moved it. */
  status: 'pinned' | 'kept' | 'moved';
}

export interface SyncResult {
  sources: SyncedSource[];
  /** What happened to extends.lock. */
  lock: 'written' | 'unchanged' | 'removed';
}

/**
 * Fetches every source of config.yaml's extends and writes the lock, under the store's write lock:
 * a source already pinned keeps its commit (fetched when this clone lacks it), a new one (or one
 * whose url, ref or path changed) is pinned to its ref's commit now; `update` moves every pin to
 * its ref's commit. A source whose tree has no `path` folder is refused; nothing is written then.
 */
export async function syncSources(root: string, options: { update?: boolean; env?: NodeJS.ProcessEnv; onProgress?: (done: number, total: number, what: string) => void } = {}): Promise<SyncResult> {
  const { readTextIfExists } = await import('../fs/read-text.js');
  const { writeStore } = await import('../store/transaction.js');
  const lockFile = join(root, LOCK_PATH);
  return writeStore(root, 'lore sync', async (tx) => {
    // config.yaml as it is under the lock (an extends add may have just changed it).
    const { loadConfig } = await import('../store/open.js');
    const current = await loadConfig(root);
    if (current.problems.some((p) => p.severity === 'error')) {
      const { ValidationError } = await import('../errors.js');
      throw new ValidationError(`${KNOWLEDGE_DIR}/config.yaml is invalid`, current.problems, { hint: 'fix it first (lore validate)' });
    }
    const config = current.config;
    const before = await readTextIfExists(lockFile);
    let lock: ExtendsLock | undefined;
    if (before !== undefined) {
      const parsed = await parseLock(before, LOCK_PATH);
      if (parsed.lock === undefined && options.update !== true) {
        const { ValidationError } = await import('../errors.js');
        throw new ValidationError(`${LOCK_PATH} is invalid`, parsed.problems, { hint: 'fix it, or rewrite it from config.yaml with lore sync --update' });
      }
      lock = parsed.lock;
    }
    const sources = configuredSources(config);
    const pins: ExtendsPin[] = [];
    const synced: SyncedSource[] = [];
    for (const [i, source] of sources.entries()) {
      options.onProgress?.(i, sources.length, `fetching ${source.name}`);
      const old = lock?.sources.find((p) => p.name === source.name);
      const same = old !== undefined && old.url === source.url && old.ref === source.ref && old.path === source.path;
      let commit: string;
      if (same && options.update !== true) {
        commit = old.commit;
        if (!(await hasCommit(root, old, options.env))) {
          await fetchSource(root, source, options.env);
          if (!(await hasCommit(root, old, options.env))) {
            throw new LoreError('NOT_FOUND', `the pinned commit ${old.commit} of source ${source.name} is not in ${source.ref} of ${source.url} any more`, { hint: 'lore sync --update pins the commit the ref names now' });
          }
        }
      } else {
        commit = await fetchSource(root, source, options.env);
      }
      const pin: ExtendsPin = { ...source, commit };
      const tree = await gitOutcome(['cat-file', '-t', `${commit}:${source.path === '.' ? '' : source.path}`], await sourceGit(root, source.name, options.env));
      if (tree.output.trim() !== 'tree') {
        throw new LoreError('NOT_FOUND', `source ${source.name} has no folder ${source.path} at ${commit.slice(0, 12)} (${source.ref} of ${source.url})`, { hint: 'set its path to the folder holding the knowledge/ tree (lore extends add ... --path DIR)' });
      }
      await keepCommit(root, pin, options.env);
      pins.push(pin);
      synced.push({ name: source.name, commit, ...(old !== undefined && old.commit !== commit ? { previous: old.commit } : {}), status: old === undefined ? 'pinned' : old.commit === commit ? 'kept' : 'moved' });
    }
    options.onProgress?.(sources.length, sources.length, 'fetched');
    if (pins.length === 0) {
      if (before === undefined) return { sources: synced, lock: 'unchanged' };
      tx.delete(lockFile);
      return { sources: synced, lock: 'removed' };
    }
    const text = lockText(pins);
    if (text === before) return { sources: synced, lock: 'unchanged' };
    tx.write(lockFile, text);
    return { sources: synced, lock: 'written' };
  });
}

/** The record files of `kinds` in a source at its pinned commit: their path in the source, and the path they would have in a store (for their kind). */
async function sourceFiles(root: string, pin: ExtendsPin, kinds: readonly RecordKindName[], env?: NodeJS.ProcessEnv): Promise<Array<{ file: GitFile; at: string }>> {
  const prefix = pin.path === '.' ? '' : `${pin.path}/`;
  const listed = await listTree(await sourceGit(root, pin.name, env), pin.commit, kinds.map((kind) => `${prefix}${KINDS[kind].dir}`));
  return listed.map((file) => ({ file: { path: `${KNOWLEDGE_DIR}/${file.path.slice(prefix.length)}`, blob: file.blob }, at: file.path }));
}

/** Where a source's record is shown: `extends:<name>/<its path in the source>`. */
export const sourceLabel = (name: string, at: string): string => `extends:${name}/${at}`;

/**
 * The records of `kinds` in every pinned source (parsed through the blob cache), each labelled
 * with its source, and the problems: the lock against config.yaml, pins not fetched, files that
 * do not parse.
 */
export async function readSourceRecords(root: string, cache: GitRecordCache, config: LoreConfig, lock: ExtendsLock | undefined, kinds: readonly RecordKindName[], env?: NodeJS.ProcessEnv): Promise<{ records: Array<StoreRecord & { blob: string; source: string }>; problems: Problem[] }> {
  const problems = lockProblems(config, lock, LOCK_PATH);
  const records: Array<StoreRecord & { blob: string; source: string }> = [];
  if (problems.length > 0 || lock === undefined) return { records, problems };
  const missing: ExtendsPin[] = [];
  for (const pin of lock.sources) if (!(await hasCommit(root, pin, env))) missing.push(pin);
  if (missing.length > 0) return { records, problems: [notFetched(missing, LOCK_PATH)] };
  for (const pin of lock.sources) {
    const files = await sourceFiles(root, pin, kinds, env);
    // No rule file at all: the folder must still be there (a hand-edited path could point at nothing).
    if (files.length === 0) {
      const tree = await gitOutcome(['cat-file', '-t', `${pin.commit}:${pin.path === '.' ? '' : pin.path}`], await sourceGit(root, pin.name, env));
      if (tree.output.trim() !== 'tree') problems.push({ severity: 'error', file: LOCK_PATH, message: `source ${pin.name} has no folder ${pin.path} at its pinned commit ${pin.commit.slice(0, 12)}: fix its path in config.yaml, then lore sync` });
    }
    const wanted: GitFileToParse[] = [];
    const at: string[] = [];
    for (const { file, at: path } of files) {
      const role = gitFileRole(file.path, kinds);
      if (role === undefined || 'config' in role) continue;
      wanted.push({ file, role });
      at.push(path);
    }
    const parsed = await parseGitFiles(await sourceGit(root, pin.name, env), cache, wanted);
    parsed.forEach((p, i) => {
      const label = sourceLabel(pin.name, at[i]!);
      if (p.record !== undefined) records.push({ ...p.record, file: label, blob: wanted[i]!.file.blob, source: pin.name });
      problems.push(...p.problems.map((problem) => ({ ...problem, file: label })));
    });
  }
  return { records, problems };
}

/**
 * The records of `kinds` in the sources a lock pins, from the lock's text (undefined: no lock
 * file), with every problem: the lock's own, the lock against config.yaml, pins not fetched, files
 * that do not parse. An invalid lock reads no source.
 */
export async function pinnedSourceRecords(root: string, cache: GitRecordCache, config: LoreConfig, lockText: string | undefined, kinds: readonly RecordKindName[], env?: NodeJS.ProcessEnv): Promise<{ lock?: ExtendsLock; records: Array<StoreRecord & { blob: string; source: string }>; problems: Problem[] }> {
  if (lockText === undefined && configuredSources(config).length === 0) return { records: [], problems: [] };
  const parsed = lockText === undefined ? { problems: [] } : await parseLock(lockText, LOCK_PATH);
  if (lockText !== undefined && parsed.lock === undefined) return { records: [], problems: parsed.problems };
  const read = await readSourceRecords(root, cache, config, parsed.lock, kinds, env);
  return { ...(parsed.lock === undefined ? {} : { lock: parsed.lock }), records: read.records, problems: [...parsed.problems, ...read.problems] };
}

/** A source's name from its url: the last path segment without .git, as a name may be written. */
export function nameFromUrl(url: string): string {
  const last = url.replace(/[\\/]+$/, '').split(/[\\/:]/).pop() ?? '';
  const name = last.replace(/\.git$/, '').replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[^A-Za-z0-9]+/, '').slice(0, 64);
  return name === '' ? 'source' : name;
}

/**
 * Adds a source to config.yaml's extends, or removes one (by name), keeping the file's comments and
 * the rest of it as written; under the store's write lock, the new file validated before it is
 * written. Returns the sources as they are then.
 */
export async function editSources(root: string, change: { add: ExtendsSource } | { remove: string }): Promise<ResolvedSource[]> {
  const [{ default: YAML }, { readTextIfExists }, { writeStore }, { parseConfig }, { ValidationError, UsageError }] = await Promise.all([
    import('yaml'), import('../fs/read-text.js'), import('../store/transaction.js'), import('../store/config.js'), import('../errors.js'),
  ]);
  const file = join(root, KNOWLEDGE_DIR, 'config.yaml');
  const shown = `${KNOWLEDGE_DIR}/config.yaml`;
  return writeStore(root, 'lore extends', async (tx) => {
    const text = (await readTextIfExists(file)) ?? '';
    const before = parseConfig(text, shown);
    if (before.problems.some((p) => p.severity === 'error')) throw new ValidationError(`${shown} is invalid`, before.problems, { hint: 'fix it first (lore validate)' });
    const doc = YAML.parseDocument(text);
    const current = configuredSources(before.config);
    if ('add' in change) {
      if (current.some((s) => s.name === change.add.name)) throw new UsageError(`config.yaml already extends a source named ${change.add.name}`, 'choose another with --name, or lore extends rm it first');
      const item = { name: change.add.name, url: change.add.url, ...(change.add.ref === undefined ? {} : { ref: change.add.ref }), ...(change.add.path === undefined ? {} : { path: change.add.path }) };
      if (doc.has('extends')) doc.addIn(['extends'], doc.createNode(item));
      else doc.set('extends', doc.createNode([item]));
    } else {
      const at = current.findIndex((s) => s.name === change.remove);
      if (at === -1) {
        const { suggest } = await import('../schema/suggest.js');
        const hint = suggest(change.remove, current.map((s) => s.name));
        throw new LoreError('NOT_FOUND', `config.yaml extends no source named ${JSON.stringify(change.remove)}`, { hint: hint === undefined ? 'lore extends list names them' : `did you mean ${hint}?` });
      }
      if (current.length === 1) doc.delete('extends');
      else doc.deleteIn(['extends', at]);
    }
    const after = doc.toString({ lineWidth: 0 });
    const checked = parseConfig(after, shown);
    if (checked.problems.some((p) => p.severity === 'error')) throw new ValidationError(`the source would make ${shown} invalid`, checked.problems);
    tx.write(file, after);
    return configuredSources(checked.config);
  });
}

/**
 * Fetches the commits that the locks given (the working tree's, and the merge base's for a range
 * check) pin and this clone lacks, writing nothing: CI's checkout, before a range check. A lock
 * config.yaml does not match is not fetched from (the check then fails on it). Returns the names of
 * the sources fetched; a pin still missing after its fetch is an error.
 */
export async function fetchPins(root: string, locks: ReadonlyArray<{ text: string; config: LoreConfig }>, env?: NodeJS.ProcessEnv): Promise<string[]> {
  const fetched: string[] = [];
  for (const { text, config } of locks) {
    const { lock } = await parseLock(text, LOCK_PATH);
    if (lock === undefined || lockProblems(config, lock, LOCK_PATH).length > 0) continue;
    for (const pin of lock.sources) {
      if (await hasCommit(root, pin, env)) continue;
      await fetchSource(root, pin, env);
      if (!(await hasCommit(root, pin, env))) {
        throw new LoreError('NOT_FOUND', `the pinned commit ${pin.commit} of source ${pin.name} is not in ${pin.ref} of ${pin.url}`, { hint: 'the pin may have been moved to history the ref no longer holds: lore sync --update, and commit the lock' });
      }
      await keepCommit(root, pin, env);
      if (!fetched.includes(pin.name)) fetched.push(pin.name);
    }
  }
  return fetched;
}
