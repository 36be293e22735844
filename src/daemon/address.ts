// Where a running daemon is: `.knowledge/.cache/daemon.json` (mode 0600: it holds the token that
// writes need) names its address, process, lore version and store. One daemon per store, held by
// `.knowledge/.cache/daemon.lock`. The CLI reads the file to decide whether to ask the daemon;
// this module stays light (no store, no parser) because every read command loads it.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isRunning, type ProcessIdentity } from '../log/process.js';

/** What daemon.json holds. */
export interface DaemonInfo {
  /** `http://127.0.0.1:PORT` */
  url: string;
  host: string;
  port: number;
  /** The daemon process (pid, host, start time): a pid reused by another process is not it. */
  process: ProcessIdentity;
  version: string;
  /** The store root it serves (absolute). */
  store: string;
  /** Sent as `x-lore-token` with every POST. */
  token: string;
  startedAt: string;
  /** envFingerprint of the daemon's environment: a CLI with another one reads the files itself. */
  env: string;
}

/** Variables that never change an answer (they choose the door, or check the output). */
const DOOR_ONLY = new Set(['LORE_NO_DAEMON', 'LORE_CHECK_OUTPUT']);

/**
 * A digest of the variables that can change an answer: lore's own (LORE_*), git's (GIT_*, which
 * decide the repository, identity and config), and keys and tokens (an embeddings provider's key
 * is named by the store's config). A daemon started with others answers as they say.
 */
export function envFingerprint(env: NodeJS.ProcessEnv): string {
  const names = Object.keys(env).filter((n) => !DOOR_ONLY.has(n) && (/^(LORE|GIT)_/.test(n) || /KEY|TOKEN|SECRET/i.test(n))).sort();
  return createHash('sha256').update(JSON.stringify(names.map((n) => [n, env[n]]))).digest('hex');
}

/** The cache folder of a store root. */
export function cacheDir(root: string): string {
  return join(root, '.knowledge', '.cache');
}

/** The path of daemon.json for a store root. */
export function daemonFile(root: string): string {
  return join(cacheDir(root), 'daemon.json');
}

/** The path of the daemon's lock for a store root. */
export function daemonLock(root: string): string {
  return join(cacheDir(root), 'daemon.lock');
}

function isInfo(value: unknown): value is DaemonInfo {
  const v = value as Partial<DaemonInfo> | null;
  return typeof v === 'object' && v !== null && typeof v.url === 'string' && typeof v.port === 'number' && typeof v.token === 'string'
    && typeof v.version === 'string' && typeof v.store === 'string' && typeof v.process === 'object' && v.process !== null && typeof v.process.pid === 'number';
}

/** daemon.json as written, or undefined when there is none or it is not one (a torn or foreign file). */
export function readDaemonInfo(root: string): DaemonInfo | undefined {
  try {
    const value = JSON.parse(readFileSync(daemonFile(root), 'utf8')) as unknown;
    return isInfo(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The daemon the CLI may ask: daemon.json names a process that still runs, of this lore version,
 * serving this very store, started with the same settings in its environment. Anything else (no file, a killed daemon, another version) is undefined
 * and the CLI reads the files itself.
 */
export function liveDaemon(root: string, version: string, env: NodeJS.ProcessEnv): DaemonInfo | undefined {
  const info = readDaemonInfo(root);
  if (info === undefined || info.version !== version || info.store !== root || info.env !== envFingerprint(env)) return undefined;
  return isRunning(info.process) === true && !isStopped(info.process.pid) ? info : undefined;
}

/** Whether a process is stopped (Ctrl-Z, SIGSTOP, a debugger) or a zombie: it would never answer. Linux only. */
function isStopped(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return /^[TtZ]/.test(stat.slice(stat.lastIndexOf(')') + 2));
  } catch {
    return false;
  }
}
