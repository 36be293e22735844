import { importKnowledge, type ConflictPolicy, type ImportResult } from '../../knowledge/import-entries.js';
import { defineOp } from '../_define.js';
import { noteWarnings } from './_knowledge.js';

export interface ImportInput {
  text: string;
  /** The name of the text in problems (a file name, `<stdin>`). */
  file?: string;
  onConflict?: ConflictPolicy;
  dryRun?: boolean;
}

export const op = defineOp<ImportInput, ImportResult>({
  name: 'knowledge.import',
  async run(input, { ws, note, progress }) {
    const result = await importKnowledge({ store: await ws.store(), text: input.text, file: input.file ?? '(input)', onConflict: input.onConflict ?? 'skip', dryRun: input.dryRun === true, env: ws.env, onProgress: progress });
    noteWarnings(note, result.warnings);
    return result;
  },
});
