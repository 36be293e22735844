import type { Problem } from '../../errors.js';
import { runRuleTests } from '../../guard/rule-tests.js';
import type { StoreRecord } from '../../store/read.js';
import { validateStore } from '../../store/validate.js';
import type { KnowledgeEntry } from '../../types.js';
import { defineOp } from '../_define.js';

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
  return [...problems].sort((a, b) => a.file.localeCompare(b.file) || (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
}

/** The prohibitions' rule tests that fail, as problems at the failing test. */
export function ruleTestProblems(records: readonly StoreRecord[]): Problem[] {
  const rules = records.filter((r) => r.kind === 'prohibition').map((r) => ({ entry: r.value as KnowledgeEntry, file: r.file }));
  return runRuleTests(rules).failures.map((f) => ({ severity: 'error', file: f.file, pointer: f.pointer, message: f.message }));
}

export const op = defineOp<Record<string, never>, ValidateOutput>({
  name: 'store.validate',
  async run(_input, { ws, progress }) {
    const store = await ws.store({ allowInvalidConfig: true });
    const report = await validateStore(store, { onProgress: (done, total) => progress(done, total, 'reading record files'), check: ruleTestProblems });
    return { valid: report.valid, files: report.files, logs: report.logs.length, records: report.records.length, errors: report.errors, warnings: report.warnings, problems: sortProblems(report.problems) };
  },
});
