import type { InitResult } from '../../entities/init.js';
import { STARTER_PACK } from '../../entities/packs.js';
import { defineOpCommand } from '../command.js';

export const command = defineOpCommand<Pick<InitResult, 'root' | 'changed' | 'updated' | 'seeded'>>({
  name: 'init',
  summary: 'scaffold .knowledge/ in this git repository',
  usage: '[options]',
  description: [
    'Creates .knowledge/ at the top of the current git repository (or in --store DIR): config.yaml with',
    'the documented defaults, .gitattributes (*.ndjson merge=union), .gitignore (.cache/ and what a crash',
    'can leave behind), copies of the schemas for editors, and the seeded roles, gate profiles and',
    'implementation modes, and the secrets starter pack of prohibitions (lore pack list), so the commit',
    'guard blocks env files, private keys and tokens from the first commit. Existing files are never',
    'overwritten (a .gitignore or .gitattributes only gets the lines it lacks); running it again changes',
    'nothing and says so.',
  ].join('\n'),
  options: {
    'no-starter': { type: 'boolean', description: 'do not write the secrets starter pack (lore pack add secrets later)' },
  },
  positionals: [0, 0],
  examples: ['lore init', 'lore init --no-starter', 'lore init --store ../other-repo'],
  op: 'store.init',
  input: (ctx) => (ctx.flag('no-starter') ? { starter: false } : {}),
  print(result, ctx) {
    if (result.changed.length === 0) {
      ctx.print(`.knowledge/ in ${result.root} is already initialised: nothing to change`);
    } else {
      ctx.print(`initialised .knowledge/ in ${result.root}:`);
      const schemas = result.changed.filter((f) => f.startsWith('.knowledge/schemas/'));
      const packed = result.seeded.filter((s) => s.kind === 'prohibition' && s.status === 'added').map((s) => s.file);
      for (const file of result.changed.filter((f) => !schemas.includes(f) && !packed.includes(f))) ctx.print(`  ${ctx.style.green(result.updated.includes(file) ? 'updated' : 'created')} ${file}`);
      if (packed.length > 0) ctx.print(`  ${ctx.style.green('created')} .knowledge/knowledge/prohibitions/ (${packed.length} prohibitions of the ${STARTER_PACK} starter pack: lore pack list)`);
      if (schemas.length > 0) ctx.print(`  ${ctx.style.green('updated')} .knowledge/schemas/ (${schemas.length} schema copies for editors)`);
    }
    for (const item of result.seeded.filter((s) => s.status === 'skipped')) {
      ctx.note(`${ctx.style.yellow('kept')} ${item.file}: ${item.reason}`);
    }
    ctx.print('next: install the pre-commit hook, so every commit is checked: npx lore hook install');
  },
});
