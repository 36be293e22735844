// `.knowledge/config.yaml`: parsing and validation (the commented file `lore init` writes is
// config-template.ts's, which needs yaml's writer).
export { DEFAULT_CONFIG, DEFAULT_LIMITS, FORMAT_VERSION, checkVersion, resolveConfig } from './config-defaults.js';
import type { Problem } from '../errors.js';
import { validateAgainst } from '../schema/validate.js';
import type { LoreConfig, LoreConfigFile } from '../types.js';
import { checkVersion, DEFAULT_CONFIG, resolveConfig } from './config-defaults.js';
import { parseText, locateIssues } from './parse.js';

export interface ParsedConfig {
  config: LoreConfig;
  problems: Problem[];
}

/** Parses and validates config text; invalid settings are reported and replaced by defaults. */
export function parseConfig(text: string, file: string): ParsedConfig {
  const parsed = parseText(text, file);
  if (parsed.value === undefined) return { config: DEFAULT_CONFIG, problems: parsed.problems };
  checkVersion(parsed.value, file);
  const problems = [...parsed.problems, ...locateIssues(parsed, file, validateAgainst('config', parsed.value))];
  if (problems.some((p) => p.severity === 'error')) return { config: DEFAULT_CONFIG, problems };
  return { config: resolveConfig(parsed.value as LoreConfigFile), problems };
}
