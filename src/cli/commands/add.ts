import { UsageError, ValidationError } from '../../errors.js';
import type { AddInput, AddOutput } from '../../ops/knowledge/add.js';
import { parseText } from '../../store/parse.js';
import type { KnowledgeEntry } from '../../types.js';
import { defineOpCommand, type CommandContext } from '../command.js';
import { TYPES } from '../_knowledge.js';
import { readInputText } from '../_input.js';
import { convertValue } from '../_options.js';

/** Flag → entry field, for the text-valued fields. */
const TEXT_FLAGS: Record<string, keyof KnowledgeEntry> = {
  id: 'id', title: 'title', description: 'description', details: 'details', priority: 'priority', scope: 'scope', project: 'projectId',
  'valid-from': 'validFrom', 'valid-until': 'validUntil', source: 'source', 'source-ref': 'sourceRef',
};
/** Flag → entry field, for the repeatable list fields. */
const LIST_FLAGS: Record<string, keyof KnowledgeEntry> = { keyword: 'keywords', pattern: 'patterns', glob: 'globs', content: 'content', 'agent-type': 'agentTypes' };

/** The entry the flags describe (on top of --from-file, when given). */
function fromFlags(ctx: CommandContext, base: Record<string, unknown>): Record<string, unknown> {
  const entry = { ...base };
  for (const [flag, field] of Object.entries(TEXT_FLAGS)) if (ctx.string(flag) !== undefined) entry[field] = ctx.string(flag);
  for (const [flag, field] of Object.entries(LIST_FLAGS)) if (ctx.strings(flag).length > 0) entry[field] = ctx.strings(flag);
  if (ctx.flag('secret')) entry.secret = true;
  if (ctx.flag('disabled')) entry.enabled = false;
  return entry;
}

async function fromFile(ctx: CommandContext, path: string): Promise<{ value: Record<string, unknown>; file: string }> {
  const input = await readInputText(ctx, path);
  const parsed = parseText(input.text.replace(/^\uFEFF/, ''), input.file);
  if (parsed.value === undefined) throw new ValidationError(`could not read the entry in ${input.file}`, parsed.problems);
  if (parsed.value === null || typeof parsed.value !== 'object' || Array.isArray(parsed.value)) {
    throw new ValidationError(`${input.file} must hold one entry (key: value lines, or a JSON object)`, [{ severity: 'error', file: input.file, line: 1, column: 1, message: 'expected a mapping' }]);
  }
  return { value: parsed.value as Record<string, unknown>, file: input.file };
}

export const command = defineOpCommand<AddOutput>({
  name: 'add',
  summary: 'add a recommendation, prohibition or learning',
  usage: '<recommendation|prohibition|learning> [options]',
  description: [
    'Writes one canonical entry file with a readable id made from the title (pro-never-commit-env-files;',
    '-2, -3, ... when taken), createdAt/updatedAt now and createdBy from git config user.name/user.email.',
    'Defaults: scope global (project with --project, agent_type with --agent-type), priority medium,',
    'source manual, no keywords. --from-file reads an entry (YAML or JSON, - for stdin); flags override it.',
    'An invalid entry is refused (exit 1) with every problem listed; nothing is written.',
  ].join('\n'),
  options: {
    title: { type: 'string', value: 'TEXT', description: 'one line a person or agent reads first' },
    description: { type: 'string', value: 'TEXT', description: 'what to do or avoid, in a sentence or two' },
    details: { type: 'string', value: 'TEXT', description: 'longer explanation' },
    keyword: { type: 'string', multiple: true, value: 'WORD', description: 'relevance term; for prohibitions matched in plan approaches (repeatable)' },
    pattern: { type: 'string', multiple: true, value: 'REGEX', description: 'regular expression (RE2) on file paths (repeatable)' },
    glob: { type: 'string', multiple: true, value: 'GLOB', description: 'glob on file paths (repeatable)' },
    content: { type: 'string', multiple: true, value: 'REGEX', description: 'regular expression (RE2) on added lines (repeatable)' },
    secret: { type: 'boolean', description: 'content matches are secret-like: reports redact them' },
    priority: { type: 'string', value: 'P', description: 'low, medium (default), high or critical' },
    scope: { type: 'string', value: 'S', description: 'global, project or agent_type' },
    project: { type: 'string', value: 'P', description: 'projectId (scope project)' },
    'agent-type': { type: 'string', multiple: true, value: 'A', description: 'agent type (scope agent_type; repeatable)' },
    'valid-from': { type: 'string', value: 'DATE', description: 'applies from this date on' },
    'valid-until': { type: 'string', value: 'DATE', description: 'applies until this date' },
    source: { type: 'string', value: 'S', description: 'manual (default), task_success, task_failure, code_review, import' },
    'source-ref': { type: 'string', value: 'REF', description: 'PR number, task id, URL' },
    id: { type: 'string', value: 'ID', description: 'use this id instead of one made from the title' },
    disabled: { type: 'boolean', description: 'add it disabled' },
    'from-file': { type: 'string', value: 'FILE', description: 'read the entry from a YAML or JSON file (- for stdin)' },
  },
  positionals: [0, 1],
  exits: { 1: 'the entry is invalid (nothing written)' },
  examples: [
    'lore add prohibition --title "Never commit .env files" --description "Environment files hold secrets." --glob "**/.env" --keyword env --priority critical',
    'lore add recommendation --title "Use TypeScript strict mode" --description "Enable strict in tsconfig.json." --keyword typescript',
    'lore add learning --from-file learning.yaml',
  ],
  op: 'entry.add',
  async input(ctx): Promise<AddInput> {
    const path = ctx.string('from-file');
    const file = path === undefined ? undefined : await fromFile(ctx, path);
    const typeWord = ctx.args[0] ?? (typeof file?.value.type === 'string' ? file.value.type : undefined);
    if (typeWord === undefined) throw new UsageError('lore add needs a type: recommendation, prohibition or learning', 'usage: lore add <recommendation|prohibition|learning> [options]');
    // The type word is checked as an enum option is (plurals accepted), and named as the user gave it.
    const label = ctx.args[0] === undefined ? `the type in ${file!.file}` : 'the type';
    const type = convertValue('type', { type: 'enum', values: TYPES, description: '' }, typeWord, label) as AddInput['type'];
    const entry = fromFlags(ctx, file?.value ?? {}) as Partial<KnowledgeEntry>;
    return { type, entry, ...(file === undefined ? {} : { file: file.file }) };
  },
  print(result, ctx) {
    ctx.print(`${ctx.style.green('added')} ${result.entry.id} (${result.file})`);
  },
});
