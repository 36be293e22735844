// Runs npm the way the npm that started this script runs (npm_execpath), else the npm on PATH.
import { execFileSync } from 'node:child_process';

/** Runs `npm <args>` in the current folder with its output on this terminal; throws when it fails. */
export function npm(args) {
  const cli = process.env.npm_execpath;
  if (cli) execFileSync(process.execPath, [cli, ...args], { stdio: 'inherit' });
  else execFileSync('npm', args, { stdio: 'inherit' });
}
