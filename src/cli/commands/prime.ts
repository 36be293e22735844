import type { Prime } from '../../prompt/prime.js';
import { defineOpCommand } from '../command.js';

export const command = defineOpCommand<Prime>({
  name: 'prime',
  summary: 'what an agent must know at the start of a session, within a token budget',
  usage: '[--budget TOKENS] [--role R] [--project P] [--paths PATH...] [options]',
  description: [
    'Prints, as markdown within the budget (default 1,500 tokens): the critical prohibitions that apply (never',
    'cut, even past the budget), the high ones, the role\'s constraints (with --role), the top recommendations',
    'and learnings (those whose patterns or globs match --paths first), and how many learnings wait for review.',
    'The same store gives the same bytes, so an agent may cache it; a SessionStart hook that runs it re-primes',
    'an agent after its context was compacted.',
  ].join('\n'),
  options: {
    budget: { type: 'integer', min: 100, max: 100_000, value: 'TOKENS', description: 'tokens the text may take (default 1500)' },
    role: { type: 'enum', values: ['player', 'coach'], value: 'R', description: 'the agent\'s role: its constraints, and entries for that agent type' },
    project: { type: 'string', value: 'P', description: 'the project (default: config.yaml\'s)' },
    paths: { type: 'string', multiple: true, value: 'PATH', description: 'a path (or glob) the session will work on (repeatable)' },
  },
  positionals: [0, 0],
  examples: ['lore prime', 'lore prime --role player --paths src/api/ --budget 800', 'lore prime --json'],
  op: 'agent.prime',
  daemon: true,
  input(ctx) {
    const [budget, role, project] = [ctx.number('budget'), ctx.string('role'), ctx.string('project')];
    return { ...(budget === undefined ? {} : { budget }), ...(role === undefined ? {} : { role }), ...(project === undefined ? {} : { project }), ...(ctx.strings('paths').length === 0 ? {} : { paths: ctx.strings('paths') }) };
  },
  print(prime, ctx) {
    ctx.print(prime.text.trimEnd());
  },
});
