import { relativesCommand } from './_dag.js';

export const command = relativesCommand('parents', {
  summary: 'list the parents of a node',
  description: 'The nodes a node names as its parents, in its own order (a parent deleted since is left out).',
  empty: (id) => `${id} has no parent: it starts a branch`,
});
