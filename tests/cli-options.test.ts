// Option values are checked and converted once, from the types commands declare.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { convertValue } from '../src/cli/_options.js';
import type { OptionSpec } from '../src/cli/command.js';
import { inProcess } from './helpers/cli.js';
import { tempStore } from './helpers/temp.js';

const { lore } = inProcess;

const spec = (fields: Partial<OptionSpec> & Pick<OptionSpec, 'type'>): OptionSpec => ({ description: 'x', ...fields });

describe('typed options', () => {
  it('read integers and numbers within their bounds, and say what they expected', () => {
    assert.equal(convertValue('max', spec({ type: 'integer', min: 1 }), '12'), 12);
    assert.throws(() => convertValue('max', spec({ type: 'integer', min: 1 }), '0'), { message: '--max must be a whole number of at least 1 (found "0")' });
    assert.throws(() => convertValue('max', spec({ type: 'integer', min: 1 }), '1.5'), { message: '--max must be a whole number of at least 1 (found "1.5")' });
    assert.throws(() => convertValue('depth', spec({ type: 'integer', min: 0, max: 5 }), '9'), { message: '--depth must be a whole number from 0 to 5 (found "9")' });
    assert.equal(convertValue('threshold', spec({ type: 'number', min: 0, max: 1 }), '0.8'), 0.8);
    assert.throws(() => convertValue('threshold', spec({ type: 'number', min: 0, max: 1 }), ''), { message: '--threshold must be a number from 0 to 1 (found "")' });
  });

  it('read enums by value or plural, dates as ISO text', () => {
    const priorities = spec({ type: 'enum', values: ['low', 'medium', 'high', 'critical'] });
    assert.equal(convertValue('priority', priorities, 'high'), 'high');
    assert.equal(convertValue('type', spec({ type: 'enum', values: ['recommendation', 'prohibition'] }), 'prohibitions'), 'prohibition');
    assert.throws(() => convertValue('priority', priorities, 'hihg'), { message: '--priority must be one of low, medium, high, critical (found "hihg")', hint: 'did you mean high?' });
    assert.equal(convertValue('valid-at', spec({ type: 'date' }), '2026-06-01'), '2026-06-01T00:00:00.000Z');
    assert.throws(() => convertValue('valid-at', spec({ type: 'date' }), 'soon'), { message: '--valid-at must be a date like 2026-01-31 or 2026-01-31T12:00:00Z (found "soon")' });
  });

  it('refuse a wrong value before the command runs, with exit 2', async (t) => {
    const root = tempStore(t, { '.knowledge/config.yaml': 'version: 1\n' });
    assert.deepEqual(await lore(['list', '--priority', 'urgent'], { cwd: root }), { code: 2, stdout: '', stderr: 'error: --priority must be one of low, medium, high, critical (found "urgent")\n' });
    assert.deepEqual(await lore(['list', '--valid-at', '2026-13-40'], { cwd: root }), { code: 2, stdout: '', stderr: 'error: --valid-at must be a date like 2026-01-31 or 2026-01-31T12:00:00Z (found "2026-13-40")\n' });
  });
});
