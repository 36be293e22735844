// What the action needs of the event that started the workflow (GITHUB_EVENT_PATH): the pull
// request's number and base branch, when it is a pull request.
import { readFile } from 'node:fs/promises';
import { LoreError } from '../errors.js';

export interface PullRequest {
  number: number;
  /** The branch the pull request merges into, as on the remote: `main`. */
  baseRef: string;
}

/** The pull request of the event, or undefined when the event is not about one (a push). */
export async function readPullRequest(env: NodeJS.ProcessEnv): Promise<PullRequest | undefined> {
  const file = env.GITHUB_EVENT_PATH;
  if (file === undefined || file === '') return undefined;
  let payload: { pull_request?: { number?: unknown; base?: { ref?: unknown } } };
  try {
    payload = JSON.parse(await readFile(file, 'utf8')) as typeof payload;
  } catch (error) {
    throw new LoreError('PARSE', `cannot read the event payload ${file}: ${(error as Error).message}`, { cause: error });
  }
  const pr = payload.pull_request;
  if (pr === undefined || pr === null) return undefined;
  if (!Number.isSafeInteger(pr.number)) throw new LoreError('PARSE', `the event payload ${file} has no pull_request.number`);
  if (typeof pr.base?.ref !== 'string' || pr.base.ref === '') throw new LoreError('PARSE', `the event payload ${file} has no pull_request.base.ref`);
  return { number: pr.number as number, baseRef: pr.base.ref };
}
