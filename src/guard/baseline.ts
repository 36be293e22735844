// Baselines: findings already known, by fingerprint, so a team can adopt a rule without fixing
// every old hit first. `lore check --write-baseline FILE` writes one; `--baseline FILE` uses it.
import { lstat } from 'node:fs/promises';
import { LoreError, ValidationError, isErrno } from '../errors.js';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { readRegularFile } from '../fs/read-text.js';
import { decodeUtf8OrThrow } from '../fs/utf8.js';
import { parseJson } from '../store/json-text.js';
import type { Finding } from './scan.js';
import { byText } from '../text-order.js';

interface BaselineFile {
  version: 1;
  findings: Array<{ fingerprint: string; entryId: string; path: string }>;
}

/** Reads a baseline's fingerprints; a missing or malformed file is an error naming it. */
export async function readBaseline(path: string): Promise<Set<string>> {
  let parsed: BaselineFile;
  try {
    parsed = parseJson(decodeUtf8OrThrow(await readRegularFile(path), path), path, 'a lore baseline') as BaselineFile;
  } catch (error) {
    if (isErrno(error, 'ENOENT')) throw new LoreError('NOT_FOUND', `no baseline at ${path}`, { hint: 'write one with lore check --write-baseline FILE' });
    if (error instanceof ValidationError) throw new LoreError('PARSE', `the baseline ${path} cannot be read`, { problems: error.problems, cause: error });
    if (error instanceof LoreError) throw error;
    throw new LoreError('IO', `could not read the baseline ${path}: ${(error as Error).message}`, { cause: error });
  }
  if (parsed?.version !== 1 || !Array.isArray(parsed.findings) || parsed.findings.some((f) => typeof f?.fingerprint !== 'string')) {
    throw new LoreError('PARSE', `${path} is not a lore baseline (expected { "version": 1, "findings": [{ "fingerprint": ... }] })`);
  }
  return new Set(parsed.findings.map((f) => f.fingerprint));
}

/** Writes the findings as a baseline (sorted, so it diffs well). */
export async function writeBaseline(path: string, findings: readonly Finding[]): Promise<number> {
  // A baseline replaces a baseline, never another file (a hook script, a config) named by mistake or on purpose.
  const existing = await lstat(path).catch(() => undefined);
  if (existing !== undefined) {
    const baseline = existing.isFile() ? await readBaseline(path).then(() => true, () => false) : false;
    if (!baseline) throw new LoreError('CONFLICT', `${path} exists and is not a lore baseline: lore does not write over it`, { hint: 'name another file, or delete that one first' });
  }
  const unique = new Map(findings.map((f) => [f.fingerprint, { fingerprint: f.fingerprint, entryId: f.entryId, path: f.path }]));
  const sorted = [...unique.values()].sort((a, b) => byText(a.entryId, b.entryId) || byText(a.path, b.path) || byText(a.fingerprint, b.fingerprint));
  const file: BaselineFile = { version: 1, findings: sorted };
  await writeFileAtomic(path, `${JSON.stringify(file, null, 2)}\n`);
  return sorted.length;
}
