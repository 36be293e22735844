#!/usr/bin/env node
// Tiny shim: the CLI runs compiled JavaScript so it starts fast (no TypeScript loader).
const args = process.argv.slice(2);
// The pre-commit hook mostly waits for git's staged diff: start it while the CLI loads.
const early = args[0] === 'hook' && args[1] === 'pre-commit' ? import('../dist/guard/staged-diff.js').then((diff) => diff.prestartStagedDiff()) : Promise.resolve();
early.then(() => import('../dist/cli/main.js')).then((cli) => cli.main(args));
