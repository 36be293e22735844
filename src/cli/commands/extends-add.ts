import type { ResolvedSource } from '../../extends/sources.js';
import { defineOpCommand } from '../command.js';

export const command = defineOpCommand<{ added: ResolvedSource; sources: ResolvedSource[] }>({
  name: 'extends add',
  summary: 'extend this store with an org-wide knowledge source (a git repository)',
  usage: '<url-or-path> [--ref R] [--path DIR] [--name N]',
  description: [
    "Adds the source to config.yaml's extends (the rest of the file is kept as written). lore sync then fetches",
    'it and pins its commit in .knowledge/extends.lock; commit both files. The source holds a .knowledge/-shaped',
    'tree (knowledge/prohibitions/, ...) in --path (default .knowledge); its entries join this store\'s, which',
    'override a source\'s entry of the same id, except that the commit guard always applies a source\'s critical',
    'prohibition.',
  ].join('\n'),
  options: {
    ref: { type: 'string', value: 'R', description: 'the branch, tag or commit to follow (default HEAD)' },
    path: { type: 'string', value: 'DIR', description: 'the folder holding the .knowledge/-shaped tree (default .knowledge)' },
    name: { type: 'string', value: 'N', description: "the source's name (default: the url's last segment)" },
  },
  positionals: [1, 1],
  examples: ['lore extends add git@github.com:acme/knowledge.git --ref main', 'lore extends add ../org-knowledge --path teams/web --name web'],
  op: 'extends.add',
  input(ctx) {
    const [ref, path, name] = [ctx.string('ref'), ctx.string('path'), ctx.string('name')];
    return { url: ctx.args[0]!, ...(ref === undefined ? {} : { ref }), ...(path === undefined ? {} : { path }), ...(name === undefined ? {} : { name }) };
  },
  print({ added }, ctx) {
    ctx.print(`${ctx.style.green('added')} ${added.name}: ${added.ref} of ${added.url}, folder ${added.path}`);
    ctx.print('next: run lore sync to fetch it and pin it in .knowledge/extends.lock, then commit both files');
  },
});
