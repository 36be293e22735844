import { knowledgeDiff, type KnowledgeDiff } from '../../guard/knowledge-diff.js';
import { defineOp } from '../_define.js';

export const op = defineOp<{ range: string }, KnowledgeDiff>({
  name: 'guard.diff',
  run: (input, { ws }) => knowledgeDiff({ cwd: ws.cwd, env: ws.env, spec: input.range }),
});
