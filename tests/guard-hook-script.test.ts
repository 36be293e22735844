import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { foreignShebang, interpreter, provesFirst, withLoreLine, withoutLoreLines } from '../src/guard/_hook-script.js';

const L = 'lore hook pre-commit || exit $? # lore-hook-shim';

describe("a hook script's interpreter", () => {
  const cases: Array<[string, string | undefined, string | undefined]> = [
    ['#!/bin/sh\necho\n', 'sh', undefined],
    ['#! /bin/dash -e\n', 'dash', undefined],
    ['#!/usr/bin/env bash\n', 'bash', undefined],
    ['#!/usr/bin/env zsh\r\n', 'zsh', undefined],
    ['#!/usr/bin/env node\nconsole.log(1)\n', 'node', '#!/usr/bin/env node'],
    ['#!/usr/bin/env -S node --no-warnings\n', 'node', '#!/usr/bin/env -S node --no-warnings'],
    ['#!/usr/bin/python3\n', 'python3', '#!/usr/bin/python3'],
    ['npm test\n', undefined, undefined],
    ['', undefined, undefined],
  ];
  for (const [text, program, foreign] of cases) {
    it(`reads ${JSON.stringify(text.split('\n')[0])} as ${program ?? 'no #! line'}`, () => {
      assert.equal(interpreter(text), program);
      assert.equal(foreignShebang(text), foreign);
    });
  }
});

describe("placing lore's line in a shell hook", () => {
  const cases: Array<[string, string | undefined, string, number[]]> = [
    ['a missing file', undefined, `${L}\n`, []],
    ['an empty file', '', `${L}\n`, []],
    ['a husky hook ending in exit 0', 'npm test\nexit 0\n', `${L}\nnpm test\nexit 0\n`, []],
    ['after the #! line and leading comments, keeping the blank line', '#!/bin/sh\n# checks\n\nexec npx lint-staged\n', `#!/bin/sh\n# checks\n${L}\n\nexec npx lint-staged\n`, []],
    ['before set -e', '#!/usr/bin/env bash\nset -e\nnpm test\n', `#!/usr/bin/env bash\n${L}\nset -e\nnpm test\n`, []],
    ['before a command that follows a comment ending in a backslash', '# not continued \\\nexit 0\n', `# not continued \\\n${L}\nexit 0\n`, []],
    ['with CRLF line endings', '#!/bin/sh\r\nnpm test\r\n', `#!/bin/sh\r\n${L}\r\nnpm test\r\n`, []],
    ['without a final newline', 'npm test', `${L}\nnpm test`, []],
    ['at the end of a file with no command', '#!/bin/sh\n# nothing yet\n', `#!/bin/sh\n# nothing yet\n${L}\n`, []],
    ['at the end of a lone #! line without a newline', '#!/bin/sh', `#!/bin/sh\n${L}\n`, []],
    ['replacing a line an earlier install appended after exit 0', 'npm test\nexit 0\nnpx --no-install lore hook pre-commit # lore-hook-shim\n', `${L}\nnpm test\nexit 0\n`, [3]],
    ['replacing every earlier lore line', `${L}\nnpm test\n${L}\n`, `${L}\nnpm test\n`, [1, 3]],
  ];
  for (const [name, before, after, replaced] of cases) {
    it(`puts it first: ${name}`, () => {
      const result = withLoreLine(before, L);
      assert.deepEqual(result, { text: after, replaced });
      assert.deepEqual(provesFirst(result.text, L), { ok: true });
    });
  }

  it('takes it out again wherever it is, leaving the rest byte for byte', () => {
    assert.equal(withoutLoreLines(`#!/bin/sh\n# checks\n${L}\n\nexec npx lint-staged\n`), '#!/bin/sh\n# checks\n\nexec npx lint-staged\n');
    assert.equal(withoutLoreLines(`npm test\n${L}\nexit 0\n`), 'npm test\nexit 0\n');
    assert.equal(withoutLoreLines(`#!/bin/sh\r\n${L}\r\nnpm test\r\n`), '#!/bin/sh\r\nnpm test\r\n');
    assert.equal(withoutLoreLines('npm test\n'), undefined);
  });
});

describe("proving lore's line runs first", () => {
  const cases: Array<[string, string, string]> = [
    ['after exit 0', `npm test\nexit 0\n${L}\n`, "line 1 runs before lore's line 3"],
    ['after exec', `#!/bin/sh\nexec npx lint-staged\n${L}\n`, "line 2 runs before lore's line 3"],
    ['commented out', `# ${L}\nnpm test\n`, "lore's line 1 is a comment"],
    ['missing', 'npm test\n', "lore's line is not in it"],
    ['twice', `${L}\n${L}\n`, "lore's marker is on 2 lines (1, 2)"],
    ['changed by hand', 'npx lore hook pre-commit # lore-hook-shim\n', 'line 1 is not the line lore writes'],
    ['in a node script', `#!/usr/bin/env node\n${L}\n`, 'it is not a shell script (#!/usr/bin/env node)'],
  ];
  for (const [name, text, why] of cases) {
    it(`fails when the line is ${name}`, () => {
      assert.deepEqual(provesFirst(text, L), { ok: false, why });
    });
  }
});
