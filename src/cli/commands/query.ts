import type { KnowledgeQuery, KnowledgeResult, RankedEntry } from '../../knowledge/query.js';
import { PRIORITIES } from '../../priority.js';
import { estimateTokens } from '../../tokens.js';
import type { KnowledgeType, Priority } from '../../types.js';
import { defineOpCommand } from '../command.js';
import { table } from '../format.js';
import { TYPES } from '../_knowledge.js';

export const command = defineOpCommand<KnowledgeResult>({
  name: 'query',
  summary: 'the knowledge relevant to a task, ranked, with a token-budgeted summary',
  usage: '"<task description>" [options]',
  description: [
    'Ranks the applicable entries (enabled, valid now, in scope for --project and --agent-type) by BM25 over',
    'title, description, details and keywords, file matches (--file against patterns and globs), technology',
    'matches (--tech), optional semantic similarity, priority and helpfulness (see docs/guides/knowledge.md, "Ranking").',
    'Prints them by type with their scores and the summary; --json prints { recommendations, prohibitions,',
    'learnings, summary, criticalWarnings, semantic, considered } with each entry\'s usage statistics.',
  ].join('\n'),
  options: {
    'task-type': { type: 'string', value: 'T', description: 'the task type (feature, bugfix, ...); its words count' },
    project: { type: 'string', value: 'P', description: 'the project (default: config.yaml project)' },
    'agent-type': { type: 'string', value: 'A', description: 'the agent type doing the task' },
    file: { type: 'string', multiple: true, value: 'PATH', description: 'a file the task touches (repeatable)' },
    tech: { type: 'string', multiple: true, value: 'NAME', description: 'a technology the task uses (repeatable)' },
    type: { type: 'enum', values: TYPES, multiple: true, value: 'TYPE', description: 'only this type (repeatable)' },
    max: { type: 'integer', min: 0, value: 'N', description: 'at most N entries of each type (default 10)' },
    'min-priority': { type: 'enum', values: PRIORITIES, value: 'P', description: 'only entries of priority P or higher' },
    budget: { type: 'integer', min: 1, value: 'TOKENS', description: 'token budget of the summary (default 800)' },
    summary: { type: 'boolean', description: 'print only the summary' },
  },
  positionals: [1, 1],
  examples: [
    'lore query "add retries to the payment API client" --tech typescript',
    'lore query "rotate the database credentials" --file config/.env --json',
    'lore query "write the release notes" --type learning --max 3 --summary',
  ],
  op: 'knowledge.query',
  daemon: true,
  input(ctx): KnowledgeQuery {
    const query: KnowledgeQuery = { taskDescription: ctx.args[0]! };
    const texts = [['taskType', 'task-type'], ['projectId', 'project'], ['agentType', 'agent-type']] as const;
    for (const [field, flag] of texts) if (ctx.string(flag) !== undefined) query[field] = ctx.string(flag);
    if (ctx.strings('file').length > 0) query.filePaths = ctx.strings('file');
    if (ctx.strings('tech').length > 0) query.technologies = ctx.strings('tech');
    if (ctx.strings('type').length > 0) query.types = ctx.strings('type') as KnowledgeType[];
    if (ctx.number('max') !== undefined) query.maxResults = ctx.number('max');
    if (ctx.string('min-priority') !== undefined) query.minPriority = ctx.string('min-priority') as Priority;
    if (ctx.number('budget') !== undefined) query.budget = ctx.number('budget');
    return query;
  },
  print(result, ctx) {
    if (ctx.flag('summary')) return void ctx.print(result.summary);
    const sections: Array<[string, RankedEntry[]]> = [['prohibitions', result.prohibitions], ['recommendations', result.recommendations], ['learnings', result.learnings]];
    for (const [label, entries] of sections) {
      if (entries.length === 0) continue;
      ctx.print(ctx.style.bold(`${label} (${entries.length})`));
      ctx.print(table(entries.map((e) => [`  ${e.score.toFixed(4)}`, e.id, `[${e.priority}] ${e.title}${e.from === undefined ? '' : ` (from ${e.from})`}`]), ctx.columns));
    }
    ctx.print(`${ctx.style.bold(`summary (~${estimateTokens(result.summary)} tokens)`)}\n${result.summary}`);
    ctx.print(ctx.style.dim(`${result.considered} applicable entries considered; ${result.semantic.message}`));
  },
});
