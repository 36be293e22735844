// One daemon per store: daemon.lock (created exclusively, holding the owner's identity) is taken
// before listening and daemon.json written once the port is known. A lock or file left by a killed
// daemon is recognised by its dead owner and replaced; a live owner is named with its address.
import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, unlink } from 'node:fs/promises';
import { LoreError, isErrno } from '../errors.js';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { assertNoSymlinkedDirs } from '../fs/no-follow.js';
import { isRunning, thisProcess, type ProcessIdentity } from '../log/process.js';
import { cacheDir, daemonFile, daemonLock, envFingerprint, readDaemonInfo, type DaemonInfo } from './address.js';

/** The daemon's hold on its store: write its address once listening, check it still holds, release. */
export interface Instance {
  token: string;
  /** Writes daemon.json (0600). */
  publish(info: Omit<DaemonInfo, 'token' | 'process' | 'env'>, env: NodeJS.ProcessEnv): Promise<DaemonInfo>;
  /** Whether the lock is still this process's: 'held', 'taken' by another daemon, or 'gone'. */
  stillHeld(): Promise<'held' | 'taken' | 'gone'>;
  /** Removes daemon.json and the lock, if they are still this process's. */
  release(): Promise<void>;
}

function sameProcess(a: ProcessIdentity | undefined, b: ProcessIdentity): boolean {
  return a !== undefined && a.pid === b.pid && a.host === b.host && a.started === b.started;
}

async function owner(path: string): Promise<{ text: string; identity?: ProcessIdentity } | undefined> {
  try {
    const text = await readFile(path, 'utf8');
    try {
      return { text, identity: JSON.parse(text) as ProcessIdentity };
    } catch {
      return { text };
    }
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return undefined;
    throw error;
  }
}

/** Where the live daemon of a store is, for the refusal to start a second one. */
function runningElsewhere(root: string, identity: ProcessIdentity | undefined): LoreError {
  const info = readDaemonInfo(root);
  const where = info === undefined ? 'its address is not written yet' : `at ${info.url}`;
  return new LoreError('CONFLICT', `a lore serve already runs for this store (pid ${identity?.pid ?? 'unknown'}), ${where}`, {
    hint: info === undefined ? 'wait a moment and try again, or stop that process' : `open ${info.url}/, or stop it (kill ${info.process.pid}) to start another`,
  });
}

/** Takes the store's daemon lock; throws CONFLICT naming the running daemon when one holds it. */
export async function claimInstance(root: string): Promise<Instance> {
  const dir = cacheDir(root);
  const lock = daemonLock(root);
  assertNoSymlinkedDirs(lock);
  await mkdir(dir, { recursive: true });
  const me = thisProcess();
  const mine = `${JSON.stringify(me)}\n`;
  for (let attempt = 0; ; attempt++) {
    try {
      const handle = await open(lock, 'wx', 0o600);
      await handle.writeFile(mine);
      await handle.close();
      break;
    } catch (error) {
      if (!isErrno(error, 'EEXIST') || attempt >= 3) throw error;
    }
    const held = await owner(lock);
    if (held === undefined) continue;
    // An unreadable lock (torn by a crash while written) is stale; a live owner is not.
    if (held.identity !== undefined && typeof held.identity.pid === 'number' && isRunning(held.identity) !== false) throw runningElsewhere(root, held.identity);
    // Break a dead daemon's lock only if it is still the one read (another starter may have won).
    if ((await owner(lock))?.text === held.text) {
      await unlink(lock).catch(() => undefined);
      await unlink(daemonFile(root)).catch(() => undefined);
    }
  }
  const token = randomBytes(32).toString('hex');
  const isMine = async (): Promise<boolean> => sameProcess((await owner(lock))?.identity, me);
  return {
    token,
    async publish(fields, env) {
      const info: DaemonInfo = { ...fields, process: me, token, env: envFingerprint(env) };
      await writeFileAtomic(daemonFile(root), `${JSON.stringify(info, null, 2)}\n`, { mode: 0o600 });
      return info;
    },
    async stillHeld() {
      try {
        const held = await owner(lock);
        return held === undefined ? 'gone' : sameProcess(held.identity, me) ? 'held' : 'taken';
      } catch {
        return 'gone';
      }
    },
    async release() {
      if (readDaemonInfo(root)?.token === token) await unlink(daemonFile(root)).catch(() => undefined);
      if (await isMine()) await unlink(lock).catch(() => undefined);
    },
  };
}
