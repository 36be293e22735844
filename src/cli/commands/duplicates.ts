import { DEFAULT_SIMILARITY } from '../../knowledge/duplicates.js';
import type { DuplicatesOutput } from '../../ops/knowledge/duplicates.js';
import { defineOpCommand } from '../command.js';
import { plural, table } from '../format.js';
import { TYPES } from '../_knowledge.js';

export const command = defineOpCommand<DuplicatesOutput>({
  name: 'duplicates',
  summary: 'find duplicate and similar entries',
  usage: '[--threshold 0.8] [options]',
  description: [
    'Compares the normalised title and description of every entry (pending learnings included): Jaccard',
    'similarity of word shingles — the stemmed words without stop words, and each pair of adjacent words.',
    'Lists every pair at or above the threshold, most similar first. Exit 0 either way.',
  ].join('\n'),
  options: {
    threshold: { type: 'number', min: 0, max: 1, value: 'T', description: `similarity from 0 to 1 (default ${DEFAULT_SIMILARITY})` },
    type: { type: 'enum', values: TYPES, multiple: true, value: 'TYPE', description: 'only entries of this type (repeatable)' },
  },
  positionals: [0, 0],
  examples: ['lore duplicates', 'lore duplicates --threshold 0.6 --type learning --json'],
  op: 'knowledge.duplicates',
  input(ctx) {
    const threshold = ctx.number('threshold');
    return { ...(threshold === undefined ? {} : { threshold }), ...(ctx.strings('type').length === 0 ? {} : { types: ctx.strings('type') }) };
  },
  print({ threshold, entries, pairs }, ctx) {
    if (pairs.length > 0) ctx.print(table(pairs.map((p) => [p.similarity.toFixed(3), p.a, p.b, `${p.aTitle} / ${p.bTitle}`]), ctx.columns));
    ctx.print(`${plural(pairs.length, 'similar pair')} among ${plural(entries, 'entry', 'entries')} at similarity >= ${threshold}`);
  },
});
