// The GitHub Action: check the pull request's commits from its merge base once, then hand the one
// report out four ways — SARIF for code scanning, annotations in the log, the job summary, and one
// pull-request comment kept up to date — with `lore diff` of the same range beside it.
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { LoreError, UsageError } from '../errors.js';
import { gitTopLevel } from '../git/exec.js';
import { checkChange } from '../guard/check-change.js';
import { knowledgeDiff } from '../guard/knowledge-diff.js';
import { diffToMarkdown } from '../guard/report-diff.js';
import { toSarif } from '../guard/report-sarif.js';
import { scannedLine, toMarkdown, verdict } from '../guard/report-text.js';
import { upsertComment } from './comment.js';
import { readPullRequest } from './event.js';
import { readInputs, type Outputs } from './inputs.js';
import { baseInCheckout } from './merge-base.js';
import { annotation, reportAnnotations, writeOutputs, writeSummary } from './workflow.js';

export interface ActionIO {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** The step's log (stdout: GitHub reads workflow commands from it). */
  write: (text: string) => void;
  /** lore's version, for the SARIF driver. */
  version: string;
}

/** The comment's hidden marker: one comment per working directory. */
export const marker = (workingDirectory: string): string => `<!-- lore-action: ${workingDirectory} -->`;

/** Runs the action; returns its exit code: 0 passed, 1 blocked, 2 could not check. */
export async function runAction(io: ActionIO): Promise<number> {
  const log = (line: string): void => io.write(`${line}\n`);
  try {
    return await run(io, log);
  } catch (error) {
    if (!(error instanceof LoreError)) throw error;
    log(`lore: error: ${error.message}`);
    if (error.cause instanceof Error) log(`lore: ${error.cause.message}`);
    for (const p of error.problems) log(annotation('error', p.message, { file: p.file, line: p.line, column: p.column, title: 'lore: invalid knowledge' }));
    if (error.hint !== undefined) log(`lore: fix: ${error.hint}`);
    log(annotation('error', `${error.message}${error.hint === undefined ? '' : `\nfix: ${error.hint}`}`, { title: 'lore could not check the pull request' }));
    return 2;
  }
}

/** Fetches what the extends locks at the head and at the merge base of `spec` pin (see fetchPins). */
async function fetchRangePins(where: { cwd: string; env: NodeJS.ProcessEnv }, spec: string): Promise<string[]> {
  const [{ fetchPins, LOCK_PATH }, { readAtRef }, { parseConfig }, { resolveRange }] = await Promise.all([
    import('../extends/sources.js'), import('../git/objects.js'), import('../store/config.js'), import('../guard/range.js'),
  ]);
  const root = (await gitTopLevel(where.cwd, where.env)) ?? where.cwd;
  const { mergeBase, head } = await resolveRange({ cwd: root, env: where.env }, spec);
  const locks: Array<{ text: string; config: ReturnType<typeof parseConfig>['config'] }> = [];
  for (const ref of [head, mergeBase]) {
    const text = await readAtRef({ cwd: root, env: where.env }, ref, LOCK_PATH);
    if (text === undefined) continue;
    const config = await readAtRef({ cwd: root, env: where.env }, ref, '.knowledge/config.yaml');
    locks.push({ text: text.toString('utf8'), config: parseConfig(config?.toString('utf8') ?? 'version: 1\n', '.knowledge/config.yaml').config });
  }
  return fetchPins(root, locks, where.env);
}

async function run(io: ActionIO, log: (line: string) => void): Promise<number> {
  const inputs = readInputs(io.env);
  const where = { cwd: resolve(io.cwd, inputs.workingDirectory), env: io.env };
  const pr = await readPullRequest(io.env);
  const base = inputs.base || pr?.baseRef;
  if (base === undefined) throw new UsageError('nothing to compare with: the event is not a pull request and the input base is empty', 'give the action a base, e.g. base: main');
  const spec = `${await baseInCheckout(where, base, log)}...HEAD`;
  // The org-wide sources both sides' extends.lock pin: fetched here (the hook never fetches).
  const fetched = await fetchRangePins(where, spec);
  if (fetched.length > 0) log(`lore: fetched the pinned commits of ${fetched.join(', ')} (.knowledge/extends.lock)`);
  const report = await checkChange({ kind: 'range', range: spec }, where);
  const diff = await knowledgeDiff({ ...where, spec });

  log(`lore: ${scannedLine(report)}`);
  for (const line of reportAnnotations(report)) log(line);
  log(`lore: ${verdict(report)}`);
  const sarif = resolve(where.cwd, inputs.sarif);
  await writeFile(sarif, `${JSON.stringify(toSarif(report, io.version), null, 2)}\n`);
  log(`lore: wrote ${sarif}`);

  const critical = report.outcome.active.filter((f) => f.priority === 'critical').length;
  const outputs: Outputs = {
    blocked: String(report.blocked),
    blocking: String(critical),
    warnings: String(report.outcome.active.length - critical),
    suppressed: String(report.outcome.suppressed.length),
    allowed: String(report.outcome.allowed.length),
    invalid: String(report.invalid.length),
    sarif,
  };
  await writeOutputs(io.env.GITHUB_OUTPUT, outputs);
  const body = `${toMarkdown(report)}\n${diffToMarkdown(diff)}`;
  await writeSummary(io.env.GITHUB_STEP_SUMMARY, body);

  if (pr !== undefined && inputs.comment) {
    const target = { api: io.env.GITHUB_API_URL || 'https://api.github.com', repository: io.env.GITHUB_REPOSITORY ?? '', number: pr.number, token: inputs.token };
    try {
      if (target.repository === '' || target.token === '') throw new Error(`no ${target.token === '' ? 'github-token' : 'GITHUB_REPOSITORY'}`);
      const done = await upsertComment(target, marker(inputs.workingDirectory), `${marker(inputs.workingDirectory)}\n${body}`);
      log(`lore: ${done.action} the pull request comment ${done.url}`);
    } catch (error) {
      // A pull request from a fork gets a read-only token: the check's verdict stands without the comment.
      log(annotation('warning', `could not write the pull request comment (${(error as Error).message}); a pull request from a fork gets a read-only token`, { title: 'lore' }));
    }
  }
  return report.blocked ? 1 : 0;
}
