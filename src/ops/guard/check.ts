import { resolve } from 'node:path';
import { UsageError } from '../../errors.js';
import type { CheckReport } from '../../guard/_evaluate.js';
import { readBaseline, writeBaseline } from '../../guard/baseline.js';
import { checkChange, type ChangeSource } from '../../guard/check-change.js';
import { defineOp } from '../_define.js';

export interface CheckInput {
  staged?: boolean;
  range?: string;
  files?: string[];
  baseline?: string;
  writeBaseline?: string;
}

/** The report, with no field left out: a project or role that is not known is null. */
export type CheckOutput = Omit<CheckReport, 'project' | 'role'> & { project: string | null; role: CheckReport['role'] | null; baselineWritten?: number };

export const op = defineOp<CheckInput, CheckOutput>({
  name: 'guard.check',
  async run(input, { ws, progress }) {
    const modes = [input.staged === true, input.range !== undefined, input.files !== undefined].filter(Boolean).length;
    if (modes > 1) throw new UsageError('give only one of staged, range and files');
    const source: ChangeSource = input.range !== undefined ? { kind: 'range', range: input.range } : input.files !== undefined ? { kind: 'files', paths: input.files } : { kind: 'staged' };
    const baseline = input.baseline === undefined ? undefined : await readBaseline(resolve(ws.cwd, input.baseline));
    const report = await checkChange(source, { cwd: ws.cwd, env: ws.env, onProgress: progress, ...(baseline === undefined ? {} : { baseline }) });
    const output: CheckOutput = { ...report, project: report.project ?? null, role: report.role ?? null };
    if (input.writeBaseline !== undefined) output.baselineWritten = await writeBaseline(resolve(ws.cwd, input.writeBaseline), [...report.outcome.active, ...report.outcome.baselined]);
    return output;
  },
});
