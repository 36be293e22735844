import { relativesCommand } from './_dag.js';

export const command = relativesCommand('children', {
  summary: 'list the nodes whose parents include a node',
  description: 'Children are the nodes that name the node as a parent (critics of it included), oldest first.',
  empty: (id) => `no node follows ${id}`,
});
