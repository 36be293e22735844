import { UsageError } from '../../errors.js';
import { EXPORT_FORMATS, formatExport, type ExportFormat } from '../../knowledge/export-entries.js';
import type { EntryWithStats } from '../../knowledge/stats.js';
import type { AgentExport } from '../../ops/agent/export.js';
import { AGENT_TARGETS } from '../../prompt/agent-files.js';
import { defineOpCommand } from '../command.js';
import { FILTER_OPTIONS, filterInput } from '../_knowledge.js';

const isAgentExport = (output: EntryWithStats[] | AgentExport): output is AgentExport => !Array.isArray(output);

const ACTIONS = { create: 'created', update: 'updated', remove: 'removed', unchanged: 'unchanged' } as const;
const WOULD = { create: 'to create', update: 'to update', remove: 'to remove', unchanged: 'unchanged' } as const;

export const command = defineOpCommand<EntryWithStats[] | AgentExport>({
  name: 'export',
  summary: 'write entries as JSON or NDJSON, or the rule files coding agents read (--to)',
  usage: '[filters] [--format json|ndjson] > FILE  |  --to agents-md|claude|cursor|copilot [--check]',
  description: [
    'Writes the recommendations, prohibitions and learnings that pass the filters (the same as lore list\'s;',
    'pending learnings are not exported) to stdout, sorted by id, each entry complete with timesApplied,',
    'timesHelpful and lastApplied. The same knowledge always exports to the same bytes, and lore import',
    'of an export into an empty store exports identically again.',
    '',
    'With --to, writes instead the files each coding agent reads, from the store: the critical and high',
    'prohibitions, the roles\' constraints and the top recommendations. agents-md and claude: a marked block in',
    'AGENTS.md or CLAUDE.md; cursor: .cursor/rules/lore.mdc and a lore-<id>.mdc with the entry\'s globs for each',
    'entry that has some; copilot: a block in .github/copilot-instructions.md and a',
    '.github/instructions/lore-<id>.instructions.md (applyTo, excludeAgent) for each entry with globs or for one',
    'agent. The rest of a file, and files lore did not write, are left alone; the same store writes the same',
    'bytes. --check writes nothing and exits 1 when a file is stale (for CI and hooks).',
  ].join('\n'),
  options: {
    format: { type: 'enum', values: EXPORT_FORMATS, value: 'F', description: 'json (an array, the default) or ndjson (one entry per line)' },
    to: { type: 'enum', values: AGENT_TARGETS, multiple: true, value: 'AGENT', description: 'write the rule files of an agent (repeatable): agents-md, claude, cursor, copilot' },
    check: { type: 'boolean', description: 'with --to: write nothing, exit 1 when a file is stale' },
    recommendations: { type: 'integer', min: 0, max: 1000, value: 'N', description: 'with --to: how many recommendations the files carry (default 10)' },
    ...FILTER_OPTIONS,
  },
  positionals: [0, 0],
  exits: { 1: 'with --to --check: a file is stale' },
  examples: [
    'lore export > knowledge.json',
    'lore export --type prohibition --priority critical --format ndjson > critical.ndjson',
    'lore export --to agents-md --to cursor',
    'lore export --to copilot --check',
  ],
  op: 'knowledge.export',
  opFor: (options) => (options.to === undefined ? undefined : 'agent.export'),
  input(ctx) {
    const to = ctx.strings('to');
    const filter = filterInput(ctx);
    if (to.length === 0) {
      if (ctx.flag('check') || ctx.number('recommendations') !== undefined) throw new UsageError('--check and --recommendations go with --to', 'lore export --to agents-md --check');
      return Object.keys(filter).length === 0 ? {} : { filter };
    }
    if (Object.keys(filter).length > 0 || ctx.string('format') !== undefined) {
      throw new UsageError('--to writes agents\' rule files from every entry that applies: filters and --format are for exporting entries', 'lore export --to cursor');
    }
    const recommendations = ctx.number('recommendations');
    return { to, ...(ctx.flag('check') ? { check: true } : {}), ...(recommendations === undefined ? {} : { recommendations }) };
  },
  print(output, ctx) {
    if (!isAgentExport(output)) {
      const text = formatExport(output, (ctx.string('format') ?? 'json') as ExportFormat);
      if (text !== '') ctx.print(text.replace(/\n$/, ''));
      return;
    }
    const words = output.written ? ACTIONS : WOULD;
    for (const file of output.files) if (file.action !== 'unchanged') ctx.print(`${words[file.action]} ${file.path}`);
    const same = output.files.length - output.stale;
    const summary = output.written
      ? `lore: ${output.stale} file${output.stale === 1 ? '' : 's'} written, ${same} unchanged`
      : output.stale === 0 ? `lore: all ${same} file${same === 1 ? '' : 's'} up to date` : `lore: ${output.stale} file${output.stale === 1 ? ' is' : 's are'} stale: run lore export ${ctx.strings('to').map((t) => `--to ${t}`).join(' ')}`;
    ctx.note(summary);
  },
  exit: (output) => (isAgentExport(output) && !output.written && output.stale > 0 ? 1 : 0),
});
