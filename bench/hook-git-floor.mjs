// The floor of any commit hook written in Node that reads what lore's hook reads: a node start plus
// the hook's git work exactly as lore does it (the staged diff and its blobs through one cat-file
// --batch, the rule trees, the top level, the role guard's context), and nothing else: no rules,
// no scan, no report. Run in the repository to measure, like the hook.
import { git } from '../dist/git/exec.js';
import { prestartStagedChange, stagedRead } from '../dist/guard/staged-change.js';
import { CONTEXT_ARGS, RULE_TREES_ARGS, TOP_LEVEL_ARGS } from '../dist/guard/hook-git.js';

const cwd = process.cwd();
prestartStagedChange(cwd);
await stagedRead({ cwd });
// symbolic-ref fails on a detached HEAD, config when no lore.* setting exists: the hook allows both.
await Promise.all([TOP_LEVEL_ARGS, RULE_TREES_ARGS, ...Object.values(CONTEXT_ARGS)].map((args) => git(args, { cwd }).catch(() => '')));
