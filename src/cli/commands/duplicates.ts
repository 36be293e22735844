import { DEFAULT_SIMILARITY, findDuplicates } from '../../knowledge/duplicates.js';
import { loadEntries } from '../../knowledge/entries.js';
import { defineCommand } from '../command.js';
import { plural, table } from '../format.js';
import { fractionFlag, manyOf, TYPES, warnSkipped } from '../_knowledge.js';

export const command = defineCommand({
  name: 'duplicates',
  summary: 'find duplicate and similar entries',
  usage: '[--threshold 0.8] [options]',
  description: [
    'Compares the normalised title and description of every entry (pending learnings included): Jaccard',
    'similarity of word shingles — the stemmed words without stop words, and each pair of adjacent words.',
    'Lists every pair at or above the threshold, most similar first. Exit 0 either way.',
  ].join('\n'),
  options: {
    threshold: { type: 'string', value: 'T', description: `similarity from 0 to 1 (default ${DEFAULT_SIMILARITY})` },
    type: { type: 'string', multiple: true, value: 'TYPE', description: 'only entries of this type (repeatable)' },
  },
  positionals: [0, 0],
  examples: ['lore duplicates', 'lore duplicates --threshold 0.6 --type learning --json'],
  async run(ctx) {
    const threshold = fractionFlag(ctx, 'threshold') ?? DEFAULT_SIMILARITY;
    const types = manyOf(ctx, 'type', TYPES);
    const { records, problems } = await loadEntries(await ctx.openStore());
    warnSkipped(ctx, problems);
    const entries = records.map((r) => r.value).filter((e) => types.length === 0 || types.includes(e.type));
    const pairs = findDuplicates(entries, threshold);
    if (ctx.json) return void ctx.printJson({ threshold, entries: entries.length, pairs });
    if (pairs.length > 0) {
      const titles = new Map(entries.map((e) => [e.id, e.title]));
      ctx.print(table(pairs.map((p) => [p.similarity.toFixed(3), p.a, p.b, `${titles.get(p.a)} / ${titles.get(p.b)}`]), ctx.columns));
    }
    ctx.print(`${plural(pairs.length, 'similar pair')} among ${plural(entries.length, 'entry', 'entries')} at similarity >= ${threshold}`);
  },
});
