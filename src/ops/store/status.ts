import type { RecordKindName } from '../../store/layout.js';
import { validateStore, type LogSummary } from '../../store/validate.js';
import { defineOp } from '../_define.js';
import { ruleTestProblems } from './validate.js';

export interface StatusOutput {
  root: string;
  project: string | null;
  counts: Record<RecordKindName, number>;
  logs: LogSummary[];
  valid: boolean;
  errors: number;
  warnings: number;
}

export const op = defineOp<Record<string, never>, StatusOutput>({
  name: 'store.status',
  async run(_input, { ws, progress }) {
    const store = await ws.store({ allowInvalidConfig: true });
    const report = await validateStore(store, { onProgress: (done, total) => progress(done, total, 'reading record files'), check: ruleTestProblems });
    return { root: report.root, project: store.config.project ?? null, counts: report.counts, logs: report.logs, valid: report.valid, errors: report.errors, warnings: report.warnings };
  },
});
