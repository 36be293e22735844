import { GATE_FIELDS } from '../../entities/gates.js';
import type { GatesListOutput } from '../../ops/player-coach/gates-list.js';
import { defineOpCommand } from '../command.js';
import { table } from '../format.js';
import { originText, overrideText, PROJECT_OPTION, projectInput, sourceLabel } from './_player-coach.js';

export const command = defineOpCommand<GatesListOutput>({
  name: 'gates list',
  summary: 'list every quality-gate profile in effect for a project',
  usage: '[options]',
  description: [
    "The store's profiles, plus the built-in ones for ranges the store lacks, each with the project's",
    'overrides applied as lore gates show applies them. Each value says whether it came from the store,',
    'the override file or the fallback.',
  ].join('\n'),
  options: { ...PROJECT_OPTION },
  positionals: [0, 0],
  examples: ['lore gates list', 'lore gates list --project acme --json'],
  op: 'gates.list',
  input: (ctx) => projectInput(ctx),
  print(listed, ctx) {
    ctx.print(`quality gates of project ${listed.project}; overrides: ${overrideText(listed.overrideFile, listed.project)}`);
    for (const { profile, origin, fields } of listed.profiles) {
      ctx.print('');
      ctx.print(`${ctx.style.bold(profile.id)}  ${ctx.style.dim(originText(origin))}`);
      const rows = GATE_FIELDS.filter((f) => profile[f] !== undefined).map((f) => [`  ${f}`, String(profile[f]), ctx.style.dim(sourceLabel(fields[f]!))]);
      ctx.print(table(rows, undefined));
    }
  },
});
