// The commented config.yaml that `lore init` writes, apart from config.ts so that reading a
// configuration never loads yaml's writer.
import YAML, { isMap, isScalar, type Pair } from 'yaml';
import { loadSchema, resolveRef, type JsonSchema } from '../schema/schemas.js';
import { DEFAULT_CONFIG } from './config-defaults.js';

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
