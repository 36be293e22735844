// Builders for commit-guard tests: prohibitions as files, a repo with a store, `lore` on PATH.
import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { LORE_BIN } from './cli.js';
import { gitRepo, gitSync, tempDir, testEnv, writeFiles } from './temp.js';

const NOW = '2026-01-01T00:00:00.000Z';

/** A prohibition record (as JSON text, which is valid YAML) with the given fields. */
export function prohibition(id: string, fields: Record<string, unknown>): string {
  return `${JSON.stringify({ id, type: 'prohibition', title: `Title of ${id}`, description: 'Do not.', scope: 'global', keywords: [], priority: 'critical', source: 'manual', createdAt: NOW, updatedAt: NOW, createdBy: 'test', enabled: true, ...fields }, null, 2)}\n`;
}

/** What lore prints (on stderr) when a commit stages a one-line `.env` and the store's `pro-env` blocks it, against `rules` prohibitions. */
export function blockedEnv(rules: number): string {
  return [
    `lore: scanned the staged change: 1 file, 1 added line, 9 bytes against ${rules} prohibition${rules === 1 ? '' : 's'} (0 from the change itself)`,
    '',
    'BLOCKED pro-env [critical] Title of pro-env',
    '  .env: path matches **/.env',
    '  how to proceed: take the file out of the commit (git rm --cached -- ".env"); if it must be committed, add an allowlist record in .knowledge/allow/ and have it reviewed',
    '',
    'lore: blocked: 1 critical finding',
    '',
  ].join('\n');
}

export const prohibitionPath = (id: string): string => `.knowledge/knowledge/prohibitions/${id}.yaml`;

/** A repository with `.knowledge/config.yaml` (project demo) and the given files, committed. */
export function guardRepo(t: TestContext, files: Record<string, string> = {}): string {
  return gitRepo(t, { '.knowledge/config.yaml': 'version: 1\nproject: demo\n', '.knowledge/.gitignore': '.cache/\n', 'README.md': '# demo\n', ...files });
}

/** An environment whose PATH has a `lore` that runs the built CLI (what installed hooks call). */
export function envWithLore(t: TestContext, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const bin = join(tempDir(t, 'lore-bin-'), 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'lore'), `#!/bin/sh\nexec "${process.execPath}" "${LORE_BIN}" "$@"\n`);
  chmodSync(join(bin, 'lore'), 0o755);
  return testEnv({ PATH: `${bin}:${process.env.PATH}`, ...extra });
}

/** Private-key-like text built at run time, so this repository's own guard never sees the literal. */
export const KEY_HEADER = ['-----BEGIN', 'RSA PRIVATE', 'KEY-----'].join(' ');

/** Runs git (a commit, with hooks) and reports its exit code and output instead of throwing. */
export function gitRun(cwd: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('git', args, { cwd, env }, (error, stdout, stderr) => resolve({ code: error === null ? 0 : Number(error.code), stdout, stderr }));
  });
}

/** Writes the files, commits everything and returns the new commit's id. */
export function commitFiles(repo: string, files: Record<string, string>, message: string): string {
  writeFiles(repo, files);
  gitSync(repo, ['add', '-A']);
  gitSync(repo, ['commit', '-q', '-m', message]);
  return gitSync(repo, ['rev-parse', 'HEAD']).trim();
}
