// Migration from the per-project `kg.<project>.json` files into the one thought log. Every file
// is read and checked before anything is written; a node already in the log is skipped, so a
// second run adds nothing. The original files are only read.
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { isErrno, LoreError } from '../errors.js';
import { decodeUtf8, utf8Problem } from '../fs/utf8.js';
import { readCapped } from '../fs/read-text.js';
import { parseKgFile, type KgFile } from './kg-file.js';
import { projectNameFromContext } from './project-name.js';
import type { DagLine, DagState } from './replay.js';
import { byText } from '../text-order.js';

const KG_FILE = /^kg\.(.+)\.json$/;
/** Old files hold a whole project's history, so they may be far larger than a record file. */
const MAX_KG_BYTES = 256 * 1024 * 1024;

/** Counts of one migrated project. */
export interface MigratedProject {
  project: string;
  files: string[];
  /** Nodes and artifacts in the files. */
  found: number;
  /** Written to the log by this run. */
  added: number;
  /** Already in the log (an earlier run, or a node appended since). */
  skipped: number;
}

/** Reads and parses every `kg.<project>.json` of `dir` (sorted by name); `kg.json` and other files are ignored. */
export async function readKgDir(dir: string, onProgress?: (done: number, total: number, what: string) => void): Promise<KgFile[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => KG_FILE.test(n)).sort();
  } catch (error) {
    const why = isErrno(error, 'ENOENT') ? 'it does not exist' : isErrno(error, 'ENOTDIR') ? 'it is not a directory' : (error as Error).message;
    throw new LoreError('IO', `cannot read the migration folder ${dir}: ${why}`, { cause: error });
  }
  if (names.length === 0) throw new LoreError('NOT_FOUND', `no kg.<project>.json files in ${dir}`, { hint: 'pass the data folder of the older tool, which holds kg.<project>.json files' });
  const files: KgFile[] = [];
  for (const [k, name] of names.entries()) {
    onProgress?.(k + 1, names.length, 'reading kg files');
    const path = join(dir, name);
    const read = readCapped(path, MAX_KG_BYTES);
    if (!('bytes' in read)) throw new LoreError('TOO_LARGE', `${path} is ${read.size} bytes, over the migration limit of ${MAX_KG_BYTES} bytes`);
    const time = (await stat(path)).mtime.toISOString();
    const project = projectNameFromContext(KG_FILE.exec(name)![1]!);
    const decoded = decodeUtf8(read.bytes);
    files.push('text' in decoded ? parseKgFile(decoded.text, path, project, time) : { file: path, project, nodes: [], artifacts: [], problems: [utf8Problem(path, decoded.fault)], warnings: [] });
  }
  return files;
}

/** The lines to append for `files`, skipping what the log already holds, with counts per project. */
export function planMigration(state: DagState, files: readonly KgFile[]): { lines: DagLine[]; projects: MigratedProject[] } {
  const lines: DagLine[] = [];
  const projects = new Map<string, MigratedProject>();
  const taken = new Set<string>();
  for (const file of files) {
    const counts = projects.get(file.project) ?? { project: file.project, files: [], found: 0, added: 0, skipped: 0 };
    projects.set(file.project, counts);
    counts.files.push(file.file);
    const existing = state.project(file.project);
    for (const line of [...file.nodes, ...file.artifacts]) {
      counts.found++;
      const key = `${line.project}\u0000${line.id}`;
      // Already in the log, or deleted from it since an earlier migration: never brought back.
      if (existing.nodes.has(line.id) || existing.artifacts.has(line.id) || state.isDeleted(line.project, line.id) || taken.has(key)) {
        counts.skipped++;
        continue;
      }
      taken.add(key);
      lines.push(line);
      counts.added++;
    }
  }
  return { lines, projects: [...projects.values()].sort((a, b) => byText(a.project, b.project)) };
}
