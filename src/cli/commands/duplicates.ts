import { DEFAULT_MAX_PAIRS, DEFAULT_SIMILARITY } from '../../knowledge/duplicates.js';
import type { DuplicatesOutput } from '../../ops/knowledge/duplicates.js';
import { defineOpCommand } from '../command.js';
import { plural, table } from '../format.js';
import { TYPES } from '../_knowledge.js';

export const command = defineOpCommand<DuplicatesOutput>({
  name: 'duplicates',
  summary: 'find duplicate and similar entries',
  usage: '[--threshold 0.8] [options]',
  description: [
    'Compares the title and description of every entry (pending learnings included): the higher of the Jaccard',
    'similarity of their word shingles (the stemmed words without stop words, and each pair of adjacent words)',
    'and the cosine of their meanings (the built-in word vectors). Lists the pairs at or above the threshold,',
    `most similar first, at most --max (default ${DEFAULT_MAX_PAIRS}). Exit 0 either way.`,
  ].join('\n'),
  options: {
    threshold: { type: 'number', min: 0, max: 1, value: 'T', description: `similarity from 0 to 1 (default ${DEFAULT_SIMILARITY})` },
    type: { type: 'enum', values: TYPES, multiple: true, value: 'TYPE', description: 'only entries of this type (repeatable)' },
    max: { type: 'integer', min: 1, value: 'N', description: `list at most N pairs (default ${DEFAULT_MAX_PAIRS})` },
  },
  positionals: [0, 0],
  examples: ['lore duplicates', 'lore duplicates --threshold 0.6 --type learning --json'],
  op: 'knowledge.duplicates',
  input(ctx) {
    const threshold = ctx.number('threshold');
    const max = ctx.number('max');
    return { ...(threshold === undefined ? {} : { threshold }), ...(ctx.strings('type').length === 0 ? {} : { types: ctx.strings('type') }), ...(max === undefined ? {} : { max }) };
  },
  print({ threshold, entries, pairs, unlisted }, ctx) {
    if (pairs.length > 0) ctx.print(table(pairs.map((p) => [p.similarity.toFixed(3), p.a, p.b, `${p.aTitle} / ${p.bTitle}`]), ctx.columns));
    ctx.print(`${plural(pairs.length + unlisted, 'similar pair')} among ${plural(entries, 'entry', 'entries')} at similarity >= ${threshold}${unlisted > 0 ? ` (${unlisted} not listed: --max)` : ''}`);
  },
});
