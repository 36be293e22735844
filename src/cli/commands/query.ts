import { getRelevantKnowledge, type RankedEntry } from '../../knowledge/query.js';
import { PRIORITIES } from '../../priority.js';
import { estimateTokens } from '../../tokens.js';
import { defineCommand } from '../command.js';
import { table } from '../format.js';
import { integerFlag, manyOf, oneOf, TYPES, warnSkipped } from '../_knowledge.js';

export const command = defineCommand({
  name: 'query',
  summary: 'the knowledge relevant to a task, ranked, with a token-budgeted summary',
  usage: '"<task description>" [options]',
  description: [
    'Ranks the applicable entries (enabled, valid now, in scope for --project and --agent-type) by BM25 over',
    'title, description, details and keywords, file matches (--file against patterns and globs), technology',
    'matches (--tech), optional semantic similarity, priority and helpfulness (see the README, "Ranking").',
    'Prints them by type with their scores and the summary; --json prints { recommendations, prohibitions,',
    'learnings, summary, criticalWarnings, semantic, considered } with each entry\'s usage statistics.',
  ].join('\n'),
  options: {
    'task-type': { type: 'string', value: 'T', description: 'the task type (feature, bugfix, ...); its words count' },
    project: { type: 'string', value: 'P', description: 'the project (default: config.yaml project)' },
    'agent-type': { type: 'string', value: 'A', description: 'the agent type doing the task' },
    file: { type: 'string', multiple: true, value: 'PATH', description: 'a file the task touches (repeatable)' },
    tech: { type: 'string', multiple: true, value: 'NAME', description: 'a technology the task uses (repeatable)' },
    type: { type: 'string', multiple: true, value: 'TYPE', description: 'only this type (repeatable)' },
    max: { type: 'string', value: 'N', description: 'at most N entries of each type (default 10)' },
    'min-priority': { type: 'string', value: 'P', description: 'only entries of priority P or higher' },
    budget: { type: 'string', value: 'TOKENS', description: 'token budget of the summary (default 800)' },
    summary: { type: 'boolean', description: 'print only the summary' },
  },
  positionals: [1, 1],
  examples: [
    'lore query "add retries to the payment API client" --tech typescript',
    'lore query "rotate the database credentials" --file config/.env --json',
    'lore query "write the release notes" --type learning --max 3 --summary',
  ],
  async run(ctx) {
    const store = await ctx.openStore();
    const minPriority = ctx.string('min-priority');
    const result = await getRelevantKnowledge({
      store,
      env: ctx.env,
      query: {
        taskDescription: ctx.args[0]!,
        taskType: ctx.string('task-type'),
        projectId: ctx.string('project'),
        agentType: ctx.string('agent-type'),
        filePaths: ctx.strings('file'),
        technologies: ctx.strings('tech'),
        types: manyOf(ctx, 'type', TYPES),
        maxResults: integerFlag(ctx, 'max'),
        minPriority: minPriority === undefined ? undefined : oneOf('min-priority', minPriority, PRIORITIES),
        budget: integerFlag(ctx, 'budget', 1),
      },
    });
    warnSkipped(ctx, result.problems);
    const { problems: _problems, ...output } = result;
    if (ctx.json) return void ctx.printJson(output);
    if (ctx.flag('summary')) return void ctx.print(result.summary);
    const sections: Array<[string, RankedEntry[]]> = [['prohibitions', result.prohibitions], ['recommendations', result.recommendations], ['learnings', result.learnings]];
    for (const [label, entries] of sections) {
      if (entries.length === 0) continue;
      ctx.print(ctx.style.bold(`${label} (${entries.length})`));
      ctx.print(table(entries.map((e) => [`  ${e.score.toFixed(4)}`, e.id, `[${e.priority}] ${e.title}`]), ctx.columns));
    }
    ctx.print(`${ctx.style.bold(`summary (~${estimateTokens(result.summary)} tokens)`)}\n${result.summary}`);
    ctx.print(ctx.style.dim(`${result.considered} applicable entries considered; ${result.semantic.message}`));
  },
});
