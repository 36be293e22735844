// `.knowledge/config.yaml`: parsing and validation, and the commented file `lore init` writes.
export { DEFAULT_CONFIG, DEFAULT_LIMITS, FORMAT_VERSION, checkVersion, resolveConfig } from './config-defaults.js';
import YAML, { isMap, isScalar, type Pair } from 'yaml';
import type { Problem } from '../errors.js';
import { loadSchema, resolveRef, type JsonSchema } from '../schema/schemas.js';
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

function describeKeys(node: unknown, schema: JsonSchema, root: JsonSchema): void {
  if (!isMap(node)) return;
  for (const pair of node.items as Pair[]) {
    if (!isScalar(pair.key)) continue;
    const sub = schema.properties?.[String(pair.key.value)];
    if (sub === undefined) continue;
    const resolved = resolveRef(root, sub);
    if (resolved.description !== undefined) pair.key.commentBefore = ` ${resolved.description}`;
    describeKeys(pair.value, resolved, root);
  }
}

/** The commented config.yaml that `lore init` writes: every default, each explained by its schema description. */
export function configTemplate(project: string | undefined, comment: string): string {
  const schema = loadSchema('config');
  const { version, ...sections } = DEFAULT_CONFIG;
  const doc = new YAML.Document({ version, ...(project === undefined ? {} : { project }), ...sections });
  describeKeys(doc.contents, schema, schema);
  return `${comment}\n# lore settings. Any setting may be left out to take the default shown here.\n${doc.toString({ lineWidth: 0, indent: 2 })}`;
}
