// The staged change is the hook's slowest step and needs none of lore's code, so bin/lore.js starts
// reading it (the raw diff, then its blobs) before the CLI loads; checkStaged takes that read when
// it is for the same directory and environment.
import type { GitOptions } from '../git/exec.js';
import { readStaged, type StagedRead } from './changes.js';
import { prestartHookGit } from './hook-git.js';

let early: { cwd: string; env: NodeJS.ProcessEnv; read: Promise<StagedRead> } | undefined;

/** Starts reading the staged change in `cwd` with this process's environment, and the check's other git commands. */
export function prestartStagedChange(cwd: string): void {
  const read = readStaged({ cwd, env: process.env });
  prestartHookGit(cwd);
  // The caller that takes it sees a failure; until then it must not count as unhandled.
  read.catch(() => undefined);
  early = { cwd, env: process.env, read };
}

/** The staged change in `options.cwd`: the early read when it matches, else a new one. */
export function stagedRead(options: GitOptions): Promise<StagedRead> {
  const env = options.env ?? process.env;
  if (early !== undefined && early.cwd === options.cwd && early.env === env) {
    const { read } = early;
    early = undefined;
    return read;
  }
  return readStaged(options);
}
