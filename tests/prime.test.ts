// lore prime: what an agent must know at the start of a session, within a token budget.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Prime } from '../src/prompt/prime.js';
import { inProcess } from './helpers/cli.js';
import { entry, entryFiles } from './helpers/knowledge.js';
import { tempStore } from './helpers/temp.js';

const { lore, loreJson } = inProcess;


const STORE = {
  '.knowledge/config.yaml': 'version: 1\nproject: shop\n',
  ...entryFiles([
    entry({ id: 'pro-env', type: 'prohibition', priority: 'critical', title: 'Never commit .env files', description: 'Secrets live there.', globs: ['**/.env'] }),
    entry({ id: 'pro-keys', type: 'prohibition', priority: 'critical', title: 'Never commit private keys', description: 'Rotate instead. A key in history is compromised for good: whoever can read the repository, now or later, can use it, so a commit that adds one is blocked, and a key that was committed must be rotated, not just deleted. This description is long on purpose.' }),
    entry({ id: 'pro-force-push', type: 'prohibition', priority: 'high', title: 'No force push to main', description: 'History is shared.' }),
    entry({ id: 'pro-other-project', type: 'prohibition', priority: 'critical', title: 'Other project rule', description: 'Not ours.', scope: 'project', projectId: 'garden' }),
    entry({ id: 'pro-low', type: 'prohibition', priority: 'low', title: 'Low rule', description: 'Never shown.' }),
    ...Array.from({ length: 12 }, (_, i) => entry({ id: `rec-${String(i).padStart(2, '0')}`, type: 'recommendation', title: `Recommendation ${i}`, description: `Do thing ${i} the careful way, with enough words to take some room in the budget.` })),
    entry({ id: 'rec-api', type: 'recommendation', title: 'Retry API calls', description: 'With backoff.', globs: ['src/api/**'] }),
    entry({ id: 'learn-replay', type: 'learning', priority: 'high', title: 'Replay takes the latest line', description: 'Never the first.' }),
    [entry({ id: 'learn-pending', type: 'learning', title: 'Waiting', description: 'For review.' }), 'pending'],
  ]),
};

describe('lore prime', () => {
  it('gives the same bytes for the same store, with the sections in order', async (t) => {
    const root = tempStore(t, STORE);
    const first = await lore(['prime'], { cwd: root });
    const second = await lore(['prime'], { cwd: root });
    assert.equal(first.code, 0, first.stderr);
    assert.equal(first.stdout, second.stdout);
    assert.match(first.stdout, /^# lore: what to know before you act \(project shop\)\n\n## Never \(critical prohibitions: a commit that breaks one is blocked\)\n- \*\*pro-env\*\* Never commit \.env files: Secrets live there\. \(paths: \*\*\/\.env\)\n- \*\*pro-keys\*\* Never commit private keys: Rotate instead\. [^\n]*\n\n## Avoid \(high prohibitions\)\n- \*\*pro-force-push\*\* No force push to main: History is shared\.\n\n## Recommended\n/);
    assert.ok(!first.stdout.includes('pro-other-project') && !first.stdout.includes('pro-low'), 'an entry that does not apply, or a low prohibition, is not primed');
  });

  it('fills the budget, says what it left out, and never cuts a critical prohibition', async (t) => {
    const root = tempStore(t, STORE);
    const { json } = await loreJson<Prime>(['prime', '--budget', '400'], { cwd: root });
    assert.ok(json.tokens <= 400, `${json.tokens} tokens`);
    assert.deepEqual(json.included.critical, ['pro-env', 'pro-keys']);
    assert.equal(json.included.recommendations.length + json.omitted.recommendations, 13);
    assert.ok(json.omitted.recommendations > 0);
    assert.match(json.text, new RegExp(`\\n- … ${json.omitted.recommendations} more: lore query "<your task>" --type recommendation\\n`));
    // A budget smaller than the critical prohibitions alone: those stay, whole, past the budget.
    const { json: tiny } = await loreJson<Prime>(['prime', '--budget', '100'], { cwd: root });
    assert.deepEqual([tiny.included.critical, tiny.included.high, tiny.included.recommendations], [['pro-env', 'pro-keys'], [], []]);
    assert.ok(tiny.tokens > 100, `${tiny.tokens} tokens`);
    assert.match(tiny.text, /This description is long on purpose\.\n/);
    assert.deepEqual(tiny.omitted, { high: 1, recommendations: 13, learnings: 1 });
  });

  it('puts the entries for the given paths first, adds the role, and counts pending learnings', async (t) => {
    const root = tempStore(t, STORE);
    const { json } = await loreJson<Prime>(['prime', '--paths', 'src/api/client.ts', '--role', 'player', '--budget', '5000'], { cwd: root });
    assert.equal(json.included.recommendations[0], 'rec-api');
    assert.equal(json.role, 'player');
    assert.match(json.text, /\n## Your role: player\nMust do: /);
    assert.equal(json.pending, 1);
    assert.match(json.text, /\n1 captured learning waits for review \(lore pending\)\.\n$/);
    assert.deepEqual(json.omitted, { high: 0, recommendations: 0, learnings: 0 });
  });

  it('refuses a budget below 100 tokens', async (t) => {
    const root = tempStore(t, STORE);
    assert.deepEqual(await lore(['prime', '--budget', '50'], { cwd: root }), { code: 2, stdout: '', stderr: 'error: --budget must be a whole number from 100 to 100000 (found "50")\n' });
  });
});
