// `lore init`: scaffolds `.knowledge/` in a repository. Creates what is missing, never
// overwrites what exists, and reports that nothing changed when run again.
import { lstat, mkdir, readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { isErrno, LoreError } from '../errors.js';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { readTextIfExists } from '../fs/read-text.js';
import { gitTopLevel } from '../git/exec.js';
import { SCHEMAS_DIR, SCHEMA_NAMES, schemaFileName } from '../schema/schemas.js';
import { checkVersion } from '../store/config-defaults.js';
import { configTemplate } from '../store/config-template.js';
import { displayPath, KNOWLEDGE_DIR, knowledgeDir, SCHEMA_COPY_DIR } from '../store/layout.js';
import { ensureLines, STORE_IGNORES } from '../store/leftovers.js';
import { parseText } from '../store/parse.js';
import { withWriteLock } from '../store/transaction.js';
import { addPack, STARTER_PACK } from './packs.js';
import { projectIdFor } from './sources.js';
import { seedDefaults, type SeedItem } from './seed.js';

export interface InitOptions {
  cwd: string;
  /** Initialise here instead of the git repository's top level. */
  store?: string | undefined;
  env?: NodeJS.ProcessEnv;
  /** Write the starter pack of prohibitions (default true). */
  starter?: boolean;
}

export interface InitResult {
  root: string;
  /** Files created or changed, relative to the root. */
  changed: string[];
  /** Those of `changed` that existed and were completed (lines added to .gitignore, .gitattributes). */
  updated: string[];
  /** The default records and the starter pack's, each added, kept or skipped. */
  seeded: SeedItem[];
}

/** Scaffolds (or completes) `.knowledge/`. */
export async function initStore(options: InitOptions): Promise<InitResult> {
  const root = options.store !== undefined ? resolve(options.cwd, options.store) : await gitTopLevel(options.cwd, options.env);
  if (root === undefined) {
    throw new LoreError('NOT_A_GIT_REPO', `${resolve(options.cwd)} is not inside a git repository`, { hint: 'run "git init" first, or pass --store DIR to create the store elsewhere' });
  }
  try {
    if (!(await stat(root)).isDirectory()) throw new LoreError('IO', `${root} is not a directory`);
  } catch (error) {
    if (isErrno(error, 'ENOENT')) throw new LoreError('IO', `${root} does not exist`);
    throw error;
  }
  const dir = knowledgeDir(root);
  await mkdir(dir, { recursive: true });
  return withWriteLock(root, () => initLocked(root, dir, options.starter !== false));
}

async function initLocked(root: string, dir: string, starter: boolean): Promise<InitResult> {
  const changed: string[] = [];
  const configPath = join(dir, 'config.yaml');
  const config = await readTextIfExists(configPath);
  if (config === undefined) {
    await writeFileAtomic(configPath, configTemplate(projectIdFor(root), `# yaml-language-server: $schema=${SCHEMA_COPY_DIR}/config.schema.json`));
    changed.push(displayPath(root, configPath));
  } else {
    // Never touch an existing configuration, but do not seed into a store of a newer format.
    checkVersion(parseText(config, `${KNOWLEDGE_DIR}/config.yaml`).value, `${KNOWLEDGE_DIR}/config.yaml`);
  }
  const updated: string[] = [];
  for (const [name, lines] of [['.gitattributes', ['*.ndjson merge=union']], ['.gitignore', STORE_IGNORES]] as const) {
    const path = join(dir, name);
    const existed = (await readTextIfExists(path)) !== undefined;
    if ((await ensureLines(path, lines)).length === 0) continue;
    changed.push(`${KNOWLEDGE_DIR}/${name}`);
    if (existed) updated.push(`${KNOWLEDGE_DIR}/${name}`);
  }
  changed.push(...(await copySchemas(root)));
  const seeded = [...(await seedDefaults(root)), ...(starter ? await addPack(root, STARTER_PACK) : [])];
  changed.push(...seeded.filter((s) => s.status === 'added').map((s) => s.file));
  return { root, changed, updated, seeded };
}

/** Copies the schemas into `.knowledge/schemas/` for editors (left alone when it is a symlink). */
async function copySchemas(root: string): Promise<string[]> {
  const dir = join(knowledgeDir(root), SCHEMA_COPY_DIR);
  try {
    if ((await lstat(dir)).isSymbolicLink()) return [];
  } catch (error) {
    if (!isErrno(error, 'ENOENT')) throw error;
  }
  const changed: string[] = [];
  for (const name of SCHEMA_NAMES) {
    const text = await readFile(SCHEMAS_DIR + schemaFileName(name), 'utf8');
    const target = join(dir, schemaFileName(name));
    if ((await readTextIfExists(target)) === text) continue;
    await writeFileAtomic(target, text);
    changed.push(displayPath(root, target));
  }
  return changed;
}
