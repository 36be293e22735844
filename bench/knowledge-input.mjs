// The tasks and plans the knowledge benchmarks query with: deterministic, varied by index.
const WORDS = 'api auth cache client config database deploy docker error event feature file git http index job json key lint log merge module network node package parser query queue retry schema secret server service session'.split(' ');

/** The i-th benchmark task: a description of a few words and a plan touching 20 files, two of them prohibited by the generated globs. */
export function taskAndPlan(i) {
  const pick = (n) => Array.from({ length: n }, (_, k) => WORDS[(i * 7 + k * 13) % WORDS.length]).join(' ');
  const fileChanges = Array.from({ length: 20 }, (_, k) => ({ path: k < 2 ? `src/${WORDS[(i + k) % WORDS.length]}/keys/prod.secret` : `src/${WORDS[(i + k) % WORDS.length]}/file-${k}.ts`, change: 'modify' }));
  return { task: { description: `Add ${pick(6)} handling`, type: 'feature' }, plan: { approach: `Change the ${pick(10)} code paths and test them.`, fileChanges, technologies: ['typescript'] } };
}
