import { diffToMarkdown } from '../../guard/report-diff.js';
import type { ChangesOutput } from '../../ops/store/changes.js';
import { defineOpCommand } from '../command.js';
import { plural, table } from '../format.js';

export const command = defineOpCommand<ChangesOutput>({
  name: 'changes',
  summary: 'what your pull request will show of .knowledge/: uncommitted changes and the diff against the default branch',
  usage: '[options]',
  description: [
    'Lists the files under .knowledge/ that git status reports (staged, unstaged, untracked), then',
    "summarises what the branch changes in knowledge terms against the default branch (origin's HEAD,",
    'else main, else master), as lore diff BASE...HEAD does. The web UI\'s Changes screen shows the same.',
  ].join('\n'),
  options: { base: { type: 'string', value: 'REF', description: 'compare with REF instead of the default branch' } },
  positionals: [0, 0],
  examples: ['lore changes', 'lore changes --base origin/release', 'lore changes --json'],
  op: 'store.changes',
  input: (ctx) => {
    const base = ctx.string('base');
    return base === undefined ? {} : { base };
  },
  print(changes, ctx) {
    const on = changes.branch === null ? 'a detached HEAD' : `branch ${changes.branch}`;
    if (changes.uncommitted.length === 0) ctx.print(`no uncommitted changes to .knowledge/ on ${on}`);
    else {
      ctx.print(`${plural(changes.uncommitted.length, 'uncommitted change')} to .knowledge/ on ${on}:`);
      const where = (f: ChangesOutput['uncommitted'][number]): string => [f.staged ? 'staged' : '', f.unstaged ? 'unstaged' : ''].filter(Boolean).join(', ');
      ctx.print(table(changes.uncommitted.map((f) => [`  ${f.change}`, f.path, ctx.style.dim(`${f.area}; ${where(f)}`)]), ctx.columns));
    }
    ctx.print('');
    if (changes.diff === null) ctx.print(`no knowledge diff: ${changes.note ?? 'nothing to compare with'}`);
    else ctx.print(diffToMarkdown(changes.diff).trimEnd());
  },
});
