import { listPacks } from '../../entities/packs.js';
import { defineOp } from '../_define.js';

export interface PackSummary {
  name: string;
  description: string;
  rules: Array<{ id: string; title: string; priority: string }>;
}

export const op = defineOp<Record<string, never>, { packs: PackSummary[] }>({
  name: 'pack.list',
  async run() {
    const packs = await listPacks();
    return { packs: packs.map((p) => ({ name: p.name, description: p.description, rules: p.entries.map((e) => ({ id: e.id, title: e.title, priority: e.priority })) })) };
  },
});
