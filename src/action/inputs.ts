// The action's inputs and outputs as action.yml names them. tests/action.test.ts holds action.yml
// to these tables, so the metadata and the script cannot drift apart.
import { UsageError } from '../errors.js';

/** The inputs the script reads, each from the environment variable action.yml sets from it. */
export const INPUTS = {
  base: 'INPUT_BASE',
  sarif: 'INPUT_SARIF',
  comment: 'INPUT_COMMENT',
  'github-token': 'INPUT_GITHUB_TOKEN',
  'working-directory': 'INPUT_WORKING_DIRECTORY',
} as const;

/** The outputs the script writes to GITHUB_OUTPUT. */
export const OUTPUTS = ['blocked', 'blocking', 'warnings', 'suppressed', 'allowed', 'invalid', 'sarif'] as const;

export type Outputs = Record<(typeof OUTPUTS)[number], string>;

export interface Inputs {
  /** A branch of origin, or a ref or commit in the checkout; empty: the pull request's base. */
  base: string;
  /** Where to write SARIF, relative to the working directory; empty: none. */
  sarif: string;
  comment: boolean;
  token: string;
  workingDirectory: string;
}

function flag(env: NodeJS.ProcessEnv, name: keyof typeof INPUTS, fallback: boolean): boolean {
  const value = (env[INPUTS[name]] ?? '').trim();
  if (value === '') return fallback;
  if (value === 'true' || value === 'false') return value === 'true';
  throw new UsageError(`the input ${name} must be true or false (found ${JSON.stringify(value)})`);
}

/** The inputs from the environment, with the defaults action.yml documents. */
export function readInputs(env: NodeJS.ProcessEnv): Inputs {
  const text = (name: keyof typeof INPUTS, fallback: string): string => (env[INPUTS[name]] ?? '').trim() || fallback;
  return {
    base: text('base', ''),
    sarif: text('sarif', 'lore.sarif'),
    comment: flag(env, 'comment', true),
    token: text('github-token', ''),
    workingDirectory: text('working-directory', '.'),
  };
}
