// Starter packs: reviewed prohibitions shipped in `packs/<name>/` (one record file each, and
// pack.yaml saying what the pack is for). `lore init` writes the `secrets` pack; `lore pack add`
// writes a pack's records that are missing, as seed does the defaults: ordinary records the team
// edits, each marked `sourceRef: pack:<name>`.
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { isErrno, LoreError, type Problem } from '../errors.js';
import { suggest } from '../schema/suggest.js';
import { parseText } from '../store/parse.js';
import { parseRecord } from '../store/read.js';
import type { KnowledgeEntry } from '../types.js';
import { seedRecords, type SeedItem } from './seed.js';

/** Where the packs are: `packs/` next to `dist/` (and `src/`) in the package. */
export const PACKS_DIR = fileURLToPath(new URL('../../packs/', import.meta.url));

/** The pack `lore init` writes unless told not to. */
export const STARTER_PACK = 'secrets';

export interface Pack {
  name: string;
  description: string;
  /** The pack's records, sorted by id. */
  entries: KnowledgeEntry[];
}

/** The names of the packs this lore ships. */
export async function packNames(): Promise<string[]> {
  try {
    return (await readdir(PACKS_DIR, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name).sort();
  } catch (error) {
    if (isErrno(error, 'ENOENT')) throw new LoreError('IO', `the packs folder ${PACKS_DIR} is missing from this installation of lore`, { cause: error });
    throw error;
  }
}

/** Reads and validates one pack; a pack file that is not a valid prohibition of its pack is an error naming it. */
export async function readPack(name: string): Promise<Pack> {
  const names = await packNames();
  if (!names.includes(name)) {
    const hint = suggest(name, names);
    throw new LoreError('NOT_FOUND', `there is no pack named ${JSON.stringify(name)} (packs: ${names.join(', ')})`, hint === undefined ? {} : { hint: `did you mean ${hint}?` });
  }
  const dir = `${PACKS_DIR}${name}/`;
  const files = (await readdir(dir)).filter((f) => f.endsWith('.yaml')).sort();
  const problems: Problem[] = [];
  const entries: KnowledgeEntry[] = [];
  let description = '';
  for (const file of files) {
    const shown = `packs/${name}/${file}`;
    const text = await readFile(dir + file, 'utf8');
    if (file === 'pack.yaml') {
      const value = parseText(text, shown).value as { description?: unknown } | undefined;
      if (typeof value?.description === 'string') description = value.description;
      else problems.push({ severity: 'error', file: shown, message: 'must hold a description' });
      continue;
    }
    const { record, problems: found } = parseRecord<KnowledgeEntry>(text, 'prohibition', file.slice(0, -'.yaml'.length), shown);
    problems.push(...found.filter((p) => p.severity === 'error'));
    if (record === undefined) continue;
    if (record.value.sourceRef !== `pack:${name}`) problems.push({ severity: 'error', file: shown, pointer: '/sourceRef', message: `must be "pack:${name}": it marks where the record came from` });
    entries.push(record.value);
  }
  if (problems.length > 0) throw new LoreError('INVALID_RECORD', `the pack ${name} is invalid`, { problems });
  return { name, description, entries };
}

/** Writes the pack's records that are missing, all or none; says which were kept (present) and skipped (edited). */
export async function addPack(root: string, name: string, options: { dryRun?: boolean } = {}): Promise<SeedItem[]> {
  const pack = await readPack(name);
  const records = pack.entries.map((value) => ({ kind: 'prohibition' as const, id: value.id, value }));
  return seedRecords(root, `lore pack add ${name}`, records, { ...options, from: `the ${name} pack` });
}

/** Every pack with what it holds, for `lore pack list`. */
export async function listPacks(): Promise<Pack[]> {
  return Promise.all((await packNames()).map(readPack));
}
