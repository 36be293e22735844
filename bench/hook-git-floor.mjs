// The floor of any commit hook written in Node that reads what lore's hook reads: a node start plus
// the hook's git work exactly as lore does it (the staged diff, then its blobs and the rule folders
// at HEAD through one cat-file --batch; the top level with the branch; the role guard's config),
// and nothing else: no rules, no scan, no report. Run in the repository to measure, like the hook.
import { git } from '../dist/git/exec.js';
import { prestartStagedChange, stagedRead } from '../dist/guard/staged-change.js';
import { CONFIG_ARGS, readTopLevel } from '../dist/guard/hook-git.js';

const cwd = process.cwd();
prestartStagedChange(cwd);
// config fails when no lore.* setting exists: the hook allows it.
await Promise.all([stagedRead({ cwd }), readTopLevel({ cwd }), git(CONFIG_ARGS, { cwd }).catch(() => '')]);
