import { checkRole, itemText, ROLE_LISTS } from '../../entities/roles.js';
import type { RolesShowOutput } from '../../ops/player-coach/roles-show.js';
import { defineOpCommand } from '../command.js';
import { table } from '../format.js';
import { originText, overrideText, PROJECT_OPTION, projectInput, sourceLabel } from './_player-coach.js';

export const command = defineOpCommand<RolesShowOutput>({
  name: 'roles show',
  summary: "show a role's constraints for a project, and where each came from",
  usage: '<role> [options]',
  description: [
    'Resolves ROLE-<role> from the store (or the built-in fallback when the store has none), extended',
    "by the project's override file (.knowledge/overrides/<project>.yaml). Each item says whether it",
    'came from the store, the override file or the fallback. Roles: coach, player.',
  ].join('\n'),
  options: { ...PROJECT_OPTION },
  positionals: [1, 1],
  examples: ['lore roles show coach', 'lore roles show coach --project acme', 'lore roles show player --json'],
  op: 'roles.show',
  input(ctx) {
    const role = ctx.args[0]!;
    // Said as the library says it, not as an input-schema error.
    checkRole(role);
    return { role, ...projectInput(ctx) };
  },
  print(resolved, ctx) {
    ctx.print(`${ctx.style.bold(resolved.constraints.id)} for project ${resolved.project}`);
    ctx.print(`  base: ${originText(resolved.origin)}`);
    ctx.print(`  additions: ${overrideText(resolved.overrideFile, resolved.project)}`);
    for (const list of ROLE_LISTS) {
      const items = resolved.items[list];
      ctx.print('');
      if (items.length === 0) {
        ctx.print(`${list}: none`);
        continue;
      }
      ctx.print(`${list}:`);
      ctx.print(table(items.map((item) => {
        const text = typeof item.value === 'string' ? item.value : `${itemText(item.value)} (paths: ${item.value.paths.join(', ')})`;
        return [`  - ${text}`, ctx.style.dim(sourceLabel(item.source))];
      }), undefined));
    }
  },
});
