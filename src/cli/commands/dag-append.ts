import { LoreError, UsageError, ValidationError } from '../../errors.js';
import { parseJson } from '../../store/json-text.js';
import { parseAppendInput } from '../../dag/append-input.js';
import type { AppendInput } from '../../dag/append.js';
import type { AppendResult } from '../../dag/dag.js';
import type { DagRole } from '../../types.js';
import { defineOpCommand, type CommandContext } from '../command.js';
import { DAG_OPTIONS, dagInput } from './_dag.js';
import { readInputText } from '../_input.js';

const NODE_FLAGS = ['project-context', 'thought', 'role', 'parent', 'tag', 'artifact', 'branch-label', 'id'];

/** The node of `--from-file FILE` (or `-`, standard input), checked field by field with the file named. */
async function fromFile(ctx: CommandContext, file: string): Promise<AppendInput & { project?: string }> {
  const given = NODE_FLAGS.filter((f) => ctx.options[f] !== undefined);
  if (given.length > 0) throw new UsageError(`--from-file gives the whole node; leave out --${given.join(', --')}`);
  const input = await readInputText(ctx, file);
  let value: unknown;
  try {
    value = parseJson(input.text, input.file, 'a JSON object (one node)');
  } catch (error) {
    // A node that is not JSON is a usage error of this command (exit 2), located like every other.
    if (error instanceof ValidationError) throw new LoreError('PARSE', error.message, { problems: error.problems, cause: error });
    throw error;
  }
  return parseAppendInput(value, input.file);
}

/** The node given by flags. */
function fromFlags(ctx: CommandContext): AppendInput {
  const thought = ctx.string('thought');
  if (thought === undefined) throw new UsageError('lore dag append needs --thought TEXT (or --from-file FILE)');
  const optional = <K extends keyof AppendInput>(key: K, value: AppendInput[K] | undefined): Partial<AppendInput> => (value === undefined ? {} : { [key]: value });
  return {
    projectContext: ctx.string('project-context') ?? '',
    thought,
    role: (ctx.string('role') ?? 'actor') as DagRole,
    parents: ctx.strings('parent'),
    tags: ctx.strings('tag'),
    artifacts: ctx.strings('artifact'),
    ...optional('branchLabel', ctx.string('branch-label')),
    ...optional('id', ctx.string('id')),
  };
}

export const command = defineOpCommand<AppendResult>({
  name: 'dag append',
  summary: 'append a thought to the DAG of its project',
  usage: '--project-context PATH --thought TEXT [options] | --from-file FILE|-',
  description: [
    'The project is the last folder name of --project-context (cleaned to [A-Za-z0-9_-], at most 50 characters); it becomes the current project.',
    'An actor thought needs at least one --tag. A relative --project-context is resolved against the working directory.',
  ].join('\n\n'),
  options: {
    'project-context': { type: 'string', value: 'PATH', description: 'the directory the thought is about (names the project)' },
    thought: { type: 'string', value: 'TEXT', description: 'the thought' },
    role: { type: 'enum', values: ['actor', 'critic'], value: 'ROLE', description: 'actor (default); critics use lore dag critic' },
    parent: { type: 'string', multiple: true, value: 'ID', description: 'a node this one follows (the first is the main line)' },
    tag: { type: 'string', multiple: true, value: 'TAG', description: 'a semantic tag: requirement, task, risk, design, ...' },
    artifact: { type: 'string', multiple: true, value: 'PATH', description: 'a file this thought produced or changed' },
    'branch-label': { type: 'string', value: 'LABEL', description: 'name the branch this node starts' },
    id: { type: 'string', value: 'ID', description: 'the node id (default: generated)' },
    'from-file': { type: 'string', value: 'FILE', description: 'read the node as JSON from FILE, or - for standard input' },
    ...DAG_OPTIONS,
  },
  positionals: [0, 0],
  examples: [
    'lore dag append --project-context "$PWD" --thought "Split the parser from the reader" --tag design --branch-label parser',
    'lore dag append --project-context "$PWD" --thought "Write the reader tests" --tag task --parent 1f2e3d4c5b6a --artifact tests/read.test.ts',
    'echo \'{"projectContext":"/home/me/app","thought":"Plan","tags":["task"]}\' | lore dag append --from-file - --json',
  ],
  op: 'dag.append',
  async input(ctx) {
    const file = ctx.string('from-file');
    const node = file === undefined ? fromFlags(ctx) : await fromFile(ctx, file);
    return { ...node, ...dagInput(ctx) };
  },
  print(result, ctx) {
    ctx.print(`appended ${result.node.role} ${result.node.id} to project ${result.node.project}`);
  },
});
