// A node given as JSON (`lore dag append --from-file`, later the MCP server): checked field by
// field before it becomes an AppendInput, so a typo is an error instead of lost data.
import { LoreError } from '../errors.js';
import { suggest } from '../schema/suggest.js';
import type { AppendInput } from './append.js';

const STRING_FIELDS = ['id', 'projectContext', 'thought', 'role', 'branchLabel', 'target', 'verdict', 'verdictReason', 'project'] as const;
const LIST_FIELDS = ['parents', 'tags', 'verdictReferences'] as const;
const SET_BY_LORE = ['children', 'createdAt', 'updatedAt', 'summarizedSegment'];
const KNOWN = [...STRING_FIELDS, ...LIST_FIELDS, 'artifacts'];

function bad(source: string, message: string, hint?: string): LoreError {
  return new LoreError('USAGE', `${source}: ${message}`, hint === undefined ? {} : { hint });
}

function checkField(source: string, key: string, value: unknown): void {
  if ((STRING_FIELDS as readonly string[]).includes(key)) {
    if (typeof value !== 'string') throw bad(source, `${key} must be a string`);
  } else if ((LIST_FIELDS as readonly string[]).includes(key)) {
    if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) throw bad(source, `${key} must be a list of strings`);
  } else if (key === 'artifacts') {
    const ok = Array.isArray(value) && value.every((a) => typeof a === 'string' || (a !== null && typeof a === 'object' && typeof (a as { path?: unknown }).path === 'string'));
    if (!ok) throw bad(source, 'artifacts must be a list of paths or of { "path": ..., "name"?: ..., "uri"?: ... } objects');
  } else if (SET_BY_LORE.includes(key)) {
    throw bad(source, `${key} is set by lore and cannot be given`);
  } else {
    const hint = suggest(key, KNOWN);
    throw bad(source, `unknown field ${JSON.stringify(key)}`, hint === undefined ? `fields: ${KNOWN.join(', ')}` : `did you mean ${hint}?`);
  }
}

/**
 * Checks a JSON value as a node to append; `source` names it in errors (a file name).
 *
 * @example
 * parseAppendInput({ projectContext: '/home/me/app', thought: 'Plan', tags: ['task'] }, 'node.json');
 */
export function parseAppendInput(value: unknown, source: string): AppendInput & { project?: string } {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw bad(source, 'expected a JSON object (one node)');
  for (const [key, field] of Object.entries(value)) checkField(source, key, field);
  return value as AppendInput & { project?: string };
}
