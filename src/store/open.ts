// Opening a store: locate it, read its configuration, refuse a newer format. config.yaml is parsed
// and validated once per content: the result is kept in .knowledge/.cache/config.json by the
// hash of its bytes and lore's cache key, so a store opens without loading the YAML parser or the
// validator until the file changes.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { isErrno, LoreError, ValidationError, type Problem } from '../errors.js';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { readCapped, readTextIfExistsSync } from '../fs/read-text.js';
import { decodeUtf8, utf8Problem } from '../fs/utf8.js';
import type { LoreConfig } from '../types.js';
import { cacheKey } from './cache-key.js';
import { DEFAULT_CONFIG, DEFAULT_LIMITS } from './config-defaults.js';
import { CACHE_DIR, displayPath, knowledgeDir } from './layout.js';
import { findStoreRoot, type LocateOptions } from './locate.js';
import { readProblem } from './record-files.js';
import { hasJournal, recoverNow, type Recovery } from './transaction.js';

/** An opened store: where it is and how it is configured. */
export interface Store {
  /** The directory holding `.knowledge/`. */
  root: string;
  config: LoreConfig;
  /** Problems in config.yaml (a warning when it is missing). */
  configProblems: Problem[];
  /** An operation a crash had interrupted, completed or undone while opening the store. */
  recovered?: Recovery;
  /** The environment git runs under for this store (the workspace's); this process's when absent. */
  env?: NodeJS.ProcessEnv;
}

interface ParsedConfig {
  config: LoreConfig;
  problems: Problem[];
}

/** config.yaml's text parsed and validated, from the cache when it holds this very text. */
async function parseConfigCached(root: string, bytes: Buffer, text: string, file: string): Promise<ParsedConfig> {
  const path = join(knowledgeDir(root), CACHE_DIR, 'config.json');
  const hash = createHash('sha1').update(cacheKey()).update('\0').update(bytes).digest('hex');
  try {
    // Never through a symlink (readTextIfExistsSync refuses one inside the store).
    const saved = JSON.parse(readTextIfExistsSync(path) ?? '') as ParsedConfig & { hash: string };
    if (saved.hash === hash) return { config: saved.config, problems: saved.problems };
  } catch {
    // missing or damaged: parsed below
  }
  const { parseConfig } = await import('./config.js');
  const parsed = parseConfig(text, file);
  // The cache is an optimisation: failing to write it (read-only checkout) changes nothing.
  await writeFileAtomic(path, JSON.stringify({ hash, ...parsed }), { durable: false }).catch(() => undefined);
  return parsed;
}

/** Reads `.knowledge/config.yaml`; a missing file means the defaults, with a warning. */
export async function loadConfig(root: string): Promise<ParsedConfig> {
  const path = join(knowledgeDir(root), 'config.yaml');
  const file = displayPath(root, path);
  let content: { bytes: Buffer } | { size: number };
  try {
    content = readCapped(path, DEFAULT_LIMITS.max_file_bytes);
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return { config: DEFAULT_CONFIG, problems: [{ severity: 'warning', file, message: 'config.yaml is missing, so the defaults apply (lore init writes one)' }] };
    if (error instanceof LoreError) return { config: DEFAULT_CONFIG, problems: [readProblem(file, error)] };
    throw new LoreError('IO', `could not read ${file}: ${(error as Error).message}`, { cause: error });
  }
  if ('size' in content) {
    return { config: DEFAULT_CONFIG, problems: [{ severity: 'error', file, message: `the file is ${content.size} bytes, over the limit of ${DEFAULT_LIMITS.max_file_bytes} bytes` }] };
  }
  const decoded = decodeUtf8(content.bytes);
  if ('fault' in decoded) return { config: DEFAULT_CONFIG, problems: [utf8Problem(file, decoded.fault)] };
  return parseConfigCached(root, content.bytes, decoded.text, file);
}

export interface OpenOptions extends LocateOptions {
  /** Open even when config.yaml is invalid (for `lore validate`, which reports it). */
  allowInvalidConfig?: boolean;
  /** Store.env. */
  env?: NodeJS.ProcessEnv;
}

/** Finds and opens the store; throws when config.yaml is invalid unless allowed. */
export async function openStore(options: OpenOptions): Promise<Store> {
  const root = findStoreRoot(options);
  // Readers too finish what a crash interrupted, so nobody sees half of an operation (one stat when there is nothing).
  const recovered = hasJournal(root) ? await recoverNow(root) : undefined;
  const { config, problems } = await loadConfig(root);
  if (!options.allowInvalidConfig && problems.some((p) => p.severity === 'error')) {
    throw new ValidationError(`${KNOWLEDGE_CONFIG} is invalid`, problems, { hint: 'fix it, then run "lore validate"' });
  }
  return { root, config, configProblems: problems, ...(recovered === undefined ? {} : { recovered }), ...(options.env === undefined ? {} : { env: options.env }) };
}

const KNOWLEDGE_CONFIG = '.knowledge/config.yaml';
