import type { Problem } from '../../errors.js';
import { validateStore } from '../../store/validate.js';
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

export const op = defineOp<Record<string, never>, ValidateOutput>({
  name: 'store.validate',
  async run(_input, { ws, progress }) {
    const store = await ws.store({ allowInvalidConfig: true });
    const report = await validateStore(store, { onProgress: (done, total) => progress(done, total, 'reading record files') });
    return { valid: report.valid, files: report.files, logs: report.logs.length, records: report.records.length, errors: report.errors, warnings: report.warnings, problems: sortProblems(report.problems) };
  },
});
