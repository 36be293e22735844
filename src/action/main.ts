// The GitHub Action's entry (action.yml runs `node dist/action/main.js`): like cli/main.ts for the
// CLI, the only place here that reads the process's environment and sets its exit code.
import { readFileSync } from 'node:fs';
import { runAction } from './run.js';
import { annotation } from './workflow.js';

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
try {
  process.exitCode = await runAction({ cwd: process.cwd(), env: process.env, write: (text) => process.stdout.write(text), version });
} catch (error) {
  process.stdout.write(`${annotation('error', String(error), { title: 'lore failed unexpectedly' })}\n`);
  process.stderr.write(`${(error as Error).stack ?? String(error)}\nThis is a bug in lore; please report it with the output above.\n`);
  process.exitCode = 2;
}
