// The current project of the thought DAG: local state of one checkout, kept in
// `.knowledge/.cache/` (never committed), so switching projects never churns a reviewed file.
import { join } from 'node:path';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { readTextIfExists } from '../fs/read-text.js';
import { CACHE_DIR, knowledgeDir } from '../store/layout.js';
import { isProjectName } from './project-name.js';

/** The file holding the current project, inside the store's cache folder. */
export function currentProjectFile(root: string): string {
  return join(knowledgeDir(root), CACHE_DIR, 'dag-current-project.json');
}

/** The recorded current project, or undefined when none is recorded (or the file is damaged). */
export async function readCurrentProject(root: string): Promise<string | undefined> {
  try {
    const { project } = JSON.parse((await readTextIfExists(currentProjectFile(root))) ?? '') as { project?: unknown };
    return typeof project === 'string' && isProjectName(project) ? project : undefined;
  } catch {
    return undefined; // missing or damaged: the cache is never an authority
  }
}

/** Records the current project (atomically). */
export async function writeCurrentProject(root: string, project: string): Promise<void> {
  await writeFileAtomic(currentProjectFile(root), `${JSON.stringify({ project })}\n`);
}
