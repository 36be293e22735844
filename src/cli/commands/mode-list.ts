import type { ModeListOutput } from '../../ops/player-coach/mode-list.js';
import { defineOpCommand } from '../command.js';
import { table } from '../format.js';
import { originText } from './_player-coach.js';

export const command = defineOpCommand<ModeListOutput>({
  name: 'mode list',
  summary: 'list the implementation modes and the complexities they suit',
  usage: '[options]',
  description: "The store's modes, plus the built-in ones the store does not have, by complexity range.",
  options: {},
  positionals: [0, 0],
  examples: ['lore mode list', 'lore mode list --json'],
  op: 'mode.list',
  input: () => ({}),
  print(listed, ctx) {
    ctx.print(table(listed.modes.map(({ mode, origin }) => [mode.mode, mode.complexity_range.join('-'), mode.ceremony_level, ctx.style.dim(originText(origin))]), ctx.columns));
  },
});
