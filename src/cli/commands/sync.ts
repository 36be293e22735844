import type { SyncResult } from '../../extends/sources.js';
import { defineOpCommand } from '../command.js';

export const command = defineOpCommand<SyncResult>({
  name: 'sync',
  summary: "fetch config.yaml's extends sources and pin them in .knowledge/extends.lock",
  usage: '[--update]',
  description: [
    'Fetches each source of config.yaml\'s extends into .git/lore/extends/ (objects only: no checkout, no',
    'hook, no submodule) and writes .knowledge/extends.lock, which you commit: a source already pinned keeps its',
    'commit, a new one is pinned to what its ref names now. --update moves every pin. Nothing else fetches: the',
    'hook, CI and every query read the pinned commits offline, and refuse to run without them (run lore sync',
    'after cloning).',
  ].join('\n'),
  options: {
    update: { type: 'boolean', description: 'move every pin to the commit its ref names now' },
  },
  positionals: [0, 0],
  examples: ['lore sync', 'lore sync --update'],
  op: 'extends.sync',
  input: (ctx) => (ctx.flag('update') ? { update: true } : {}),
  print(result, ctx) {
    for (const s of result.sources) {
      const what = s.status === 'moved' ? `moved ${s.name} from ${s.previous!.slice(0, 12)} to ${s.commit.slice(0, 12)}` : `${s.status} ${s.name} at ${s.commit.slice(0, 12)}`;
      ctx.print(what);
    }
    const lock = { written: 'wrote .knowledge/extends.lock: commit it', unchanged: '.knowledge/extends.lock is up to date', removed: 'removed .knowledge/extends.lock (no source left): commit that' }[result.lock];
    ctx.print(result.sources.length === 0 && result.lock === 'unchanged' ? 'no extends sources in config.yaml' : lock);
  },
});
