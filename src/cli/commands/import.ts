import { CONFLICT_POLICIES, type ConflictPolicy, type ImportItem, type ImportResult } from '../../knowledge/import-entries.js';
import type { ImportInput } from '../../ops/knowledge/import.js';
import { defineOpCommand } from '../command.js';
import { readInputText } from '../_input.js';

export const command = defineOpCommand<ImportResult>({
  name: 'import',
  summary: 'import entries from an export (JSON array or NDJSON)',
  usage: 'FILE [--dry-run] [--on-conflict skip|overwrite|rename] [options]',
  description: [
    'Validates every entry first and writes nothing if any is invalid, listing every problem (exit 1).',
    'Ids are preserved; source is set to import where missing (and createdAt, updatedAt, createdBy and',
    'enabled take their defaults; an entry without an id gets one from its title). An id already in the',
    'store is skipped (default), overwritten, or imported as id-2, id-3, ... (rename). Usage statistics',
    'of new entries are restored as application events. FILE - reads stdin.',
  ].join('\n'),
  options: {
    'dry-run': { type: 'boolean', description: 'validate and report what would happen; write nothing' },
    'on-conflict': { type: 'enum', values: CONFLICT_POLICIES, value: 'P', description: 'skip (default), overwrite or rename' },
  },
  positionals: [1, 1],
  exits: { 1: 'an entry is invalid (nothing written)' },
  examples: ['lore import knowledge.json --dry-run', 'lore import knowledge.ndjson --on-conflict rename'],
  op: 'knowledge.import',
  async input(ctx): Promise<ImportInput> {
    const { text, file } = await readInputText(ctx, ctx.args[0]!);
    return { text, file, onConflict: (ctx.string('on-conflict') ?? 'skip') as ConflictPolicy, dryRun: ctx.flag('dry-run') };
  },
  print(result, ctx) {
    const would = result.dryRun ? 'would be ' : '';
    for (const item of result.items) ctx.print(`${would}${item.action} ${item.importedAs === undefined ? '' : `${item.importedAs} → `}${item.id} (${item.file})`);
    const count = (action: ImportItem['action']): number => result.items.filter((i) => i.action === action).length;
    const counts = (['created', 'overwritten', 'unchanged', 'renamed', 'skipped'] as const).map((a) => `${count(a)} ${a}`).join(', ');
    ctx.print(`${result.dryRun ? 'dry run, nothing written' : 'imported'}: ${result.items.length} entries: ${counts}`);
  },
});
