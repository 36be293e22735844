import { addEntry } from '../../knowledge/manage.js';
import type { KnowledgeEntry, KnowledgeType } from '../../types.js';
import type { WriteStatus } from '../../store/write.js';
import { defineOp } from '../_define.js';
import { noteWarnings } from './_knowledge.js';

export interface AddInput {
  type: KnowledgeType;
  entry: Partial<KnowledgeEntry>;
  /** Where the entry came from, to name it in problems (default: the file it is written to). */
  file?: string;
}

export interface AddOutput {
  id: string;
  type: KnowledgeType;
  file: string;
  status: WriteStatus;
  entry: KnowledgeEntry;
  warnings: string[];
}

export const op = defineOp<AddInput, AddOutput>({
  name: 'entry.add',
  async run(input, { ws, note }) {
    const { type } = input;
    const result = await addEntry({ store: await ws.store(), type, input: input.entry, env: ws.env, ...(input.file === undefined ? {} : { shownAs: input.file }) });
    noteWarnings(note, result.warnings);
    return { id: result.entry.id, type, file: result.file, status: result.status, entry: result.entry, warnings: result.warnings };
  },
});
