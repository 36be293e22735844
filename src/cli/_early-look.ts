// The entry files' look, started by bin/lore.js for the commands that read the knowledge index
// (query, check-plan, prompt agent) when the files will be read here: find lists and stats them on
// the other core while the CLI loads, and the command's first look takes its answer
// (indexer/early-look.ts). Nothing is started where a daemon is likely to answer (daemon.json is
// there, and LORE_NO_DAEMON is not 1), on a single core, or where no store is found: the command
// then looks itself, as it always can.
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { daemonFile } from '../daemon/address.js';
import { prestartFolderLook } from '../indexer/early-look.js';
import { APPLIED_KINDS } from '../store/layout.js';
import { findStoreRoot } from '../store/locate.js';
import { recordDir } from '../store/record-files.js';

/** `--store DIR` or `--store=DIR` among the arguments before `--` (the last one given); undefined when none. */
function storeOption(args: readonly string[]): string | undefined {
  let store: string | undefined;
  for (let q = 0; q < args.length && args[q] !== '--'; q++) {
    const arg = args[q]!;
    if (arg === '--store') store = args[++q];
    else if (arg.startsWith('--store=')) store = arg.slice('--store='.length);
  }
  return store;
}

/** Starts find on the store's entry folders, when the command is likely to read them itself. */
export function prestartEntryLook(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): void {
  if (availableParallelism() < 2 || args.includes('--help') || args.includes('-h')) return;
  let root: string;
  try {
    root = findStoreRoot({ cwd, store: storeOption(args) });
  } catch {
    return; // the command says what is wrong
  }
  if (env.LORE_NO_DAEMON !== '1' && existsSync(daemonFile(root))) return;
  prestartFolderLook(APPLIED_KINDS.map((kind) => recordDir(root, kind)));
}
