// Opening a store: locate it, read its configuration, refuse a newer format.
import { join } from 'node:path';
import { isErrno, LoreError, ValidationError, type Problem } from '../errors.js';
import { decodeUtf8, utf8Problem } from '../fs/utf8.js';
import type { LoreConfig } from '../types.js';
import { DEFAULT_CONFIG, DEFAULT_LIMITS, parseConfig } from './config.js';
import { displayPath, knowledgeDir } from './layout.js';
import { findStoreRoot, type LocateOptions } from './locate.js';
import { readCapped, readProblem } from './read.js';
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
}

/** Reads `.knowledge/config.yaml`; a missing file means the defaults, with a warning. */
export async function loadConfig(root: string): Promise<{ config: LoreConfig; problems: Problem[] }> {
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
  return parseConfig(decoded.text, file);
}

export interface OpenOptions extends LocateOptions {
  /** Open even when config.yaml is invalid (for `lore validate`, which reports it). */
  allowInvalidConfig?: boolean;
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
  return { root, config, configProblems: problems, ...(recovered === undefined ? {} : { recovered }) };
}

const KNOWLEDGE_CONFIG = '.knowledge/config.yaml';
