// What the knowledge operations share: the knowledge index the workspace keeps (a long-lived
// process builds it once and again only when an entry folder, the usage log or config.yaml
// changes), and the notes they leave for people.
import { join } from 'node:path';
import type { Problem } from '../../errors.js';
import { loadKnowledgeIndex, type LoadedIndex } from '../../knowledge/knowledge-index.js';
import { applicationsLog } from '../../knowledge/stats.js';
import { APPLIED_KINDS, KINDS, knowledgeDir } from '../../store/layout.js';
import type { Store } from '../../store/open.js';
import type { Workspace } from '../../workspace/workspace.js';

/** The store and its knowledge index, kept in the workspace until a file it was built from changes. */
export async function knowledgeIndex(ws: Workspace): Promise<LoadedIndex & { store: Store }> {
  const store = await ws.store();
  const dir = knowledgeDir(store.root);
  const loaded = await ws.remember('knowledge:index', async () => [
    ...APPLIED_KINDS.map((kind) => join(dir, KINDS[kind].dir)),
    applicationsLog(store.root),
    join(dir, 'config.yaml'),
  ], () => loadKnowledgeIndex(store));
  return { ...loaded, store };
}

const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`;

/** Notes that invalid files were left out, so a result is never silently partial. */
export function noteSkipped(note: (text: string) => void, problems: readonly Problem[]): void {
  const errors = problems.filter((p) => p.severity === 'error');
  if (errors.length === 0) return;
  const files = [...new Set(errors.map((p) => p.file))];
  note(`warning: ${plural(errors.length, 'problem')} in ${files.slice(0, 3).join(', ')}${files.length > 3 ? ', ...' : ''}; invalid files and lines are left out (run "lore validate")`);
}

/** Notes each warning of a write (an unknown author, ...). */
export function noteWarnings(note: (text: string) => void, warnings: readonly string[]): void {
  for (const warning of warnings) note(`warning: ${warning}`);
}
