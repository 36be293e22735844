import { queryKnowledge, type KnowledgeQuery, type KnowledgeResult } from '../../knowledge/query.js';
import { defineOp } from '../_define.js';
import { knowledgeIndex, noteSkipped } from './_knowledge.js';

export const op = defineOp<KnowledgeQuery, KnowledgeResult>({
  name: 'knowledge.query',
  async run(input, { ws, note }) {
    const { store, index, problems } = await knowledgeIndex(ws);
    noteSkipped(note, problems);
    return queryKnowledge(index, input, { root: store.root, projectId: store.config.project, env: ws.env });
  },
});
