import { KINDS, RECORD_KINDS } from '../../store/layout.js';
import { validateStore } from '../../store/validate.js';
import { defineCommand } from '../command.js';
import { plural, table } from '../format.js';

export const command = defineCommand({
  name: 'status',
  summary: 'summarise the store: records per kind, logs, validity',
  usage: '[options]',
  description: 'What `npm start` runs on this repository. Exit 0 when the store is valid, 1 when it is not.',
  options: {},
  positionals: [0, 0],
  examples: ['lore status', 'lore status --json'],
  async run(ctx) {
    const store = await ctx.openStore({ allowInvalidConfig: true });
    const report = await validateStore(store, { onProgress: (done, total) => ctx.progress(`reading ${done}/${total} files...`) });
    ctx.progress(undefined);
    if (ctx.json) {
      ctx.printJson({ root: report.root, project: store.config.project ?? null, counts: report.counts, logs: report.logs, valid: report.valid, errors: report.errors, warnings: report.warnings });
      return report.valid ? 0 : 1;
    }
    ctx.print(`${ctx.style.bold('lore store')} ${report.root}/.knowledge${store.config.project === undefined ? '' : ` (project ${store.config.project})`}`);
    ctx.print('');
    ctx.print(table(RECORD_KINDS.map((kind) => [`  ${KINDS[kind].label}`, String(report.counts[kind])]), ctx.columns));
    for (const log of report.logs) ctx.print(`  ${log.file}: ${plural(log.lines, 'line')}`);
    ctx.print('');
    const verdict = `${plural(report.errors, 'error')}, ${plural(report.warnings, 'warning')}`;
    ctx.print(report.valid ? ctx.style.green(`valid (${verdict})`) : ctx.style.red(`invalid (${verdict}): run "lore validate" for details`));
    return report.valid ? 0 : 1;
  },
});
