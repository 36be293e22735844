// Who a lock, a journal or a temp file belongs to, and whether that process still runs: the pid,
// the host, and (on Linux) the process's start time, so a pid reused by another process is not
// mistaken for the owner.
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { isErrno } from '../errors.js';

export interface ProcessIdentity {
  pid: number;
  host: string;
  /** The process's start time, from /proc (clock ticks since boot); absent where there is no /proc. */
  started?: string;
}

/** A process's start time from /proc, or undefined where there is no /proc (or no such process). */
function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 22, counted after the command name, which is in parentheses and may hold spaces.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

const self: ProcessIdentity = (() => {
  const started = processStart(process.pid);
  return { pid: process.pid, host: hostname(), ...(started === undefined ? {} : { started }) };
})();

/** This process, as it records itself in locks and journals. */
export function thisProcess(): ProcessIdentity {
  return self;
}

/**
 * Whether the owner still runs: true or false on this host, undefined for another host (whose
 * processes cannot be seen). An owner without a host is taken to be on this one.
 */
export function isRunning(owner: { pid: number; host?: string; started?: string }): boolean | undefined {
  if (owner.host !== undefined && owner.host !== self.host) return undefined;
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    if (!isErrno(error, 'EPERM')) return false;
  }
  return owner.started === undefined || processStart(owner.pid) === owner.started;
}
