import { UsageError } from '../../errors.js';
import type { CheckReport } from '../../guard/_evaluate.js';
import { readBaseline, writeBaseline } from '../../guard/baseline.js';
import { checkChange, type ChangeSource } from '../../guard/check-change.js';
import { defineOp } from '../_define.js';
import { inputPath } from '../_paths.js';

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
  async run(input, ctx) {
    const { ws, progress } = ctx;
    const modes = [input.staged === true, input.range !== undefined, input.files !== undefined].filter(Boolean).length;
    if (modes > 1) throw new UsageError('give only one of staged, range and files');
    // The files to check: for an HTTP or MCP caller, the repository's own (never read through a link).
    if (input.files !== undefined && ctx.confined === true) for (const file of input.files) await inputPath(ctx, file, 'files[]', { inStore: true });
    const source: ChangeSource = input.range !== undefined ? { kind: 'range', range: input.range } : input.files !== undefined ? { kind: 'files', paths: input.files } : { kind: 'staged' };
    // Both files are checked before the change is: a path refused leaves nothing done.
    const baselineFile = input.baseline === undefined ? undefined : await inputPath(ctx, input.baseline, 'baseline');
    const writeFile = input.writeBaseline === undefined ? undefined : await inputPath(ctx, input.writeBaseline, 'writeBaseline');
    const baseline = baselineFile === undefined ? undefined : await readBaseline(baselineFile);
    const report = await checkChange(source, { cwd: ws.cwd, env: ws.env, onProgress: progress, ...(baseline === undefined ? {} : { baseline }) });
    const output: CheckOutput = { ...report, project: report.project ?? null, role: report.role ?? null };
    if (writeFile !== undefined) output.baselineWritten = await writeBaseline(writeFile, [...report.outcome.active, ...report.outcome.baselined]);
    return output;
  },
});
