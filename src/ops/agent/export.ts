import { planAgentFiles, writeAgentFiles, type AgentFile, type AgentTarget } from '../../prompt/agent-files.js';
import { defineOp } from '../_define.js';

export interface AgentExportInput {
  to: AgentTarget[];
  check?: boolean;
  recommendations?: number;
}

export interface AgentExport {
  /** Every file of the targets and what was done (or, with check, would be done) to it. */
  files: Array<Omit<AgentFile, 'text'>>;
  /** Files not as the store says: to create, update or remove. */
  stale: number;
  /** Whether the files were written (false with check). */
  written: boolean;
}

export const op = defineOp<AgentExportInput, AgentExport>({
  name: 'agent.export',
  async run(input, { ws }) {
    const store = await ws.store();
    const files = await planAgentFiles(store, input.to, input.recommendations === undefined ? {} : { recommendations: input.recommendations });
    if (input.check !== true) await writeAgentFiles(store.root, files);
    return {
      files: files.map(({ target, path, action }) => ({ target, path, action })),
      stale: files.filter((f) => f.action !== 'unchanged').length,
      written: input.check !== true,
    };
  },
});
