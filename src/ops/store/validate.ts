import { join } from 'node:path';
import type { Problem } from '../../errors.js';
import { configuredSources, hasCommit, LOCK_PATH, lockProblems, notFetched, parseLock } from '../../extends/sources.js';
import { readTextIfExists } from '../../fs/read-text.js';
import { turnMergeForks } from '../../turns/merge-forks.js';
import { runRuleTests } from '../../guard/rule-tests.js';
import type { StoreRecord } from '../../store/read.js';
import { validateStore } from '../../store/validate.js';
import type { KnowledgeEntry, LoreConfig } from '../../types.js';
import { defineOp } from '../_define.js';
import { byText } from '../../text-order.js';

export interface ValidateOutput {
  valid: boolean;
  files: number;
  logs: number;
  records: number;
  errors: number;
  warnings: number;
  problems: Problem[];
}

/** Problems sorted by file and position, as people read them. */
export function sortProblems(problems: readonly Problem[]): Problem[] {
  return [...problems].sort((a, b) => byText(a.file, b.file) || (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
}

/** The prohibitions' rule tests that fail, as problems at the failing test. */
export function ruleTestProblems(records: readonly StoreRecord[]): Problem[] {
  const rules = records.filter((r) => r.kind === 'prohibition').map((r) => ({ entry: r.value as KnowledgeEntry, file: r.file }));
  return runRuleTests(rules).failures.map((f) => ({ severity: 'error', file: f.file, pointer: f.pointer, message: f.message }));
}

/** extends.lock against config.yaml's extends: missing, invalid or not matching is an error (CI fails); a pin this clone has not fetched, a warning (lore sync). */
async function extendsProblems(root: string, config: LoreConfig, env: NodeJS.ProcessEnv): Promise<Problem[]> {
  const text = await readTextIfExists(join(root, LOCK_PATH));
  if (text === undefined && configuredSources(config).length === 0) return [];
  const parsed = text === undefined ? { problems: [] } : await parseLock(text, LOCK_PATH);
  if (text !== undefined && parsed.lock === undefined) return parsed.problems;
  const problems = lockProblems(config, parsed.lock, LOCK_PATH);
  if (problems.length > 0 || parsed.lock === undefined) return problems;
  const missing = [];
  for (const pin of parsed.lock.sources) if (!(await hasCommit(root, pin, env))) missing.push(pin);
  return missing.length === 0 ? [] : [{ ...notFetched(missing, LOCK_PATH), severity: 'warning' }];
}

export const op = defineOp<Record<string, never>, ValidateOutput>({
  name: 'store.validate',
  async run(_input, { ws, progress }) {
    const store = await ws.store({ allowInvalidConfig: true });
    const report = await validateStore(store, { onProgress: (done, total) => progress(done, total, 'reading record files'), check: ruleTestProblems });
    const extended = [...(await extendsProblems(store.root, store.config, ws.env)), ...(await turnMergeForks(store.root, ws.env))];
    const errors = report.errors + extended.filter((p) => p.severity === 'error').length;
    const warnings = report.warnings + extended.filter((p) => p.severity === 'warning').length;
    return { valid: report.valid && errors === report.errors, files: report.files, logs: report.logs.length, records: report.records.length, errors, warnings, problems: sortProblems([...report.problems, ...extended]) };
  },
});
