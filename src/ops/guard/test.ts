import { LoreError } from '../../errors.js';
import { runRuleTests, type RuleTestReport } from '../../guard/rule-tests.js';
import { loadEntries } from '../../knowledge/entries.js';
import { suggest } from '../../schema/suggest.js';
import { defineOp } from '../_define.js';
import { byText } from '../../text-order.js';

export const op = defineOp<{ ids?: string[] }, RuleTestReport & { passed: boolean }>({
  name: 'guard.test',
  async run(input, { ws }) {
    const store = await ws.store();
    const { records, problems } = await loadEntries(store, ['prohibition']);
    const errors = problems.filter((p) => p.severity === 'error');
    if (errors.length > 0) throw new LoreError('INVALID_STORE', 'cannot test the prohibitions: some do not validate', { problems: errors, hint: 'fix them (lore validate), then run lore test again' });
    const known = records.map((r) => r.id);
    for (const id of input.ids ?? []) {
      if (!known.includes(id)) {
        const hint = suggest(id, known);
        throw new LoreError('NOT_FOUND', `no prohibition has the id ${id}`, hint === undefined ? {} : { hint: `did you mean ${hint}?` });
      }
    }
    const chosen = input.ids === undefined || input.ids.length === 0 ? records : records.filter((r) => input.ids!.includes(r.id));
    const report = runRuleTests(chosen.sort((a, b) => byText(a.id, b.id)).map((r) => ({ entry: r.value, file: r.file })));
    return { ...report, passed: report.failures.length === 0 };
  },
});
