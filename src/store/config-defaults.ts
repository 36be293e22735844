// Configuration defaults and the format-version check. No parser here: the commit hook imports
// this without loading yaml or ajv.
import { LoreError } from '../errors.js';
import type { LimitsConfig, LoreConfig, LoreConfigFile } from '../types.js';

/** The newest store format this lore reads and writes. */
export const FORMAT_VERSION = 1;

export const DEFAULT_LIMITS: LimitsConfig = { max_file_bytes: 1024 * 1024, max_yaml_aliases: 100, max_depth: 32 };

export const DEFAULT_CONFIG: LoreConfig = {
  version: FORMAT_VERSION,
  matching: { use_semantic: true, semantic_threshold: 0.7, keyword_boost: 1.5 },
  pre_task_check: { enabled: true, block_on_critical: true, max_recommendations: 5, max_learnings: 3 },
  capture: { auto_capture_success: true, auto_capture_failure: true, on_turn_record: false, require_approval: true },
  retention: { max_age_days: 365, prune_low_priority: true, min_applications_to_keep: 3 },
  turns: { max_per_feature: 50, max_per_project: 200, max_turns: 3 },
  limits: DEFAULT_LIMITS,
};

/** Fills every setting the file leaves out with its default. */
export function resolveConfig(file: LoreConfigFile): LoreConfig {
  const config: LoreConfig = {
    version: file.version,
    matching: { ...DEFAULT_CONFIG.matching, ...file.matching },
    pre_task_check: { ...DEFAULT_CONFIG.pre_task_check, ...file.pre_task_check },
    capture: { ...DEFAULT_CONFIG.capture, ...file.capture },
    retention: { ...DEFAULT_CONFIG.retention, ...file.retention },
    turns: { ...DEFAULT_CONFIG.turns, ...file.turns },
    limits: { ...DEFAULT_CONFIG.limits, ...file.limits },
  };
  if (file.project !== undefined) config.project = file.project;
  if (file.extends !== undefined && file.extends.length > 0) config.extends = file.extends;
  return config;
}

/** Refuses a store written by a newer lore rather than misreading it. */
export function checkVersion(value: unknown, file: string): void {
  const version = (value as { version?: unknown } | null)?.version;
  if (typeof version === 'number' && version > FORMAT_VERSION) {
    throw new LoreError('UNSUPPORTED_VERSION', `${file} says the store has format version ${version}, but this lore reads only version ${FORMAT_VERSION} and older`, {
      hint: 'upgrade lore to a newer release to read this store; lore will not guess at a newer format',
    });
  }
}
