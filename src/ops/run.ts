// Running an operation: its input is checked against its input schema (the one validator,
// src/schema/), then its module is loaded and run. Every adapter calls this.
import { LoreError } from '../errors.js';
import { opSchemaPath } from '../schema/schemas.js';
import { validateAgainstFile } from '../schema/validate.js';
import { suggest } from '../schema/suggest.js';
import { tooDeep } from '../store/parse.js';
import type { OpContext } from './_define.js';
import { findOp, OPS } from './registry.js';

/**
 * How deep an input may nest: far deeper than any record may (limits.max_depth, 32 by default),
 * far shallower than what would exhaust the stack of the code that walks a value.
 */
export const MAX_INPUT_DEPTH = 128;

export interface RunOptions {
  /** Also check the output against the output schema (tests, and adapters that publish it). */
  checkOutput?: boolean;
}

/**
 * Runs the operation `name` with `input`; throws USAGE (naming every field) when the input does
 * not match the operation's input schema.
 *
 * @example
 * const status = await runOp('store.status', {}, { ws, note: console.error, progress: () => undefined });
 */
export async function runOp(name: string, input: unknown, ctx: OpContext, options: RunOptions = {}): Promise<unknown> {
  const entry = findOp(name);
  if (entry === undefined) {
    const hint = suggest(name, OPS.map((op) => op.name));
    throw new LoreError('USAGE', `no operation named ${JSON.stringify(name)}`, { hint: hint === undefined ? 'lore mcp lists the operations as tools' : `did you mean ${hint}?` });
  }
  if (tooDeep(input, MAX_INPUT_DEPTH)) throw new LoreError('USAGE', `the input of ${name} is nested more than ${MAX_INPUT_DEPTH} levels deep`);
  const issues = validateAgainstFile(opSchemaPath(name, 'input'), input);
  if (issues.length > 0) {
    throw new LoreError('USAGE', `the input of ${name} is invalid`, { problems: issues.map((issue) => ({ severity: 'error', file: `${name} input`, pointer: issue.pointer, message: issue.message })) });
  }
  const { op } = await entry.load();
  const output = await (op.run as (input: unknown, ctx: OpContext) => Promise<unknown>)(input, ctx);
  if (options.checkOutput === true) {
    const wrong = validateAgainstFile(opSchemaPath(name, 'output'), output);
    if (wrong.length > 0) throw new Error(`the output of ${name} does not match its schema: ${wrong.map((w) => `${w.pointer} ${w.message}`).join('; ')}`);
  }
  return output;
}
