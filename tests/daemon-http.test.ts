// The daemon's HTTP handlers, called as functions of Request → Response (no port): every
// refusal the issue lists, the operations' doors, the error shapes, the schemas, the UI's headers.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { test } from 'node:test';
import { EventHub } from '../src/daemon/events.js';
import { createApp, MAX_BODY_BYTES } from '../src/daemon/http.js';
import { CSP, IMPORT_MAP, indexPage } from '../src/daemon/ui-assets.js';
import { Workspace } from '../src/workspace/workspace.js';
import { lore } from './helpers/cli.js';
import { tempDir, testEnv } from './helpers/temp.js';

const TOKEN = 'a'.repeat(64);
const HOST = '127.0.0.1:7373';

async function app(t: import('node:test').TestContext, ui = true) {
  const root = tempDir(t);
  const init = await lore(['init', '--no-starter', '--store', root], { cwd: root });
  assert.equal(init.code, 0, init.stderr);
  const ws = new Workspace({ cwd: root, env: testEnv() });
  const server = createApp({ ws, hub: new EventHub(), token: TOKEN, version: '0.1.0', address: () => ({ host: '127.0.0.1', port: 7373 }), ui, checkOutput: true, startedAt: '2026-01-01T00:00:00.000Z' });
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) => server.request(path, {
    method: 'POST',
    headers: { host: HOST, 'content-type': 'application/json', 'x-lore-token': TOKEN, origin: `http://${HOST}`, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const get = (path: string, headers: Record<string, string> = {}) => server.request(path, { headers: { host: HOST, 'x-lore-token': TOKEN, ...headers } });
  return { root, server, post, get };
}

const ENTRY = { title: 'Prefer small pure functions', description: 'Small functions are easy to test' };
const ADD = { type: 'recommendation', entry: ENTRY };
const entryFile = (root: string) => join(root, '.knowledge', 'knowledge', 'recommendations', 'rec-prefer-small-pure-functions.yaml');

test('an operation over HTTP: the input and output of its schemas, written through the same locked op as the CLI', async (t) => {
  const { root, post, get } = await app(t);
  const added = await post('/api/ops/entry.add', ADD);
  assert.equal(added.status, 200);
  const body = (await added.json()) as { id: string; file: string };
  assert.equal(body.id, 'rec-prefer-small-pure-functions');
  assert.equal(body.file, '.knowledge/knowledge/recommendations/rec-prefer-small-pure-functions.yaml');
  const shown = await get(`/api/ops/record.show?input=${encodeURIComponent(JSON.stringify({ id: body.id }))}`);
  assert.equal(shown.status, 200);
  assert.equal(((await shown.json()) as { value: { title: string } }).value.title, 'Prefer small pure functions');
  const cli = await lore(['show', body.id, '--json'], { cwd: root, env: testEnv({ LORE_NO_DAEMON: '1' }) });
  assert.deepEqual(JSON.parse(cli.stdout), await (await get(`/api/records/${body.id}`)).json());
});

test('the plain GET URLs run their operations: /api/query?q=TEXT&limit=N is knowledge.query with maxResults', async (t) => {
  const { post, get } = await app(t);
  for (const title of ['Retry the payment client with backoff', 'Retry the mail client with backoff']) {
    assert.equal((await post('/api/ops/entry.add', { type: 'recommendation', entry: { title, description: `${title} on timeouts` } })).status, 200);
  }
  const limited = await get('/api/query?q=retry+client+backoff&limit=1');
  assert.equal(limited.status, 200, await limited.clone().text());
  assert.equal(((await limited.json()) as { recommendations: unknown[] }).recommendations.length, 1);
  const all = (await (await get('/api/query?q=retry+client+backoff')).json()) as { recommendations: unknown[] };
  assert.equal(all.recommendations.length, 2);
  const status = (await (await get('/api/status')).json()) as { counts: { recommendation: number } };
  assert.equal(status.counts.recommendation, 2);
  const listed = (await (await get('/api/records?kind=recommendation')).json()) as unknown[];
  assert.equal(listed.length, 2);
});

test('refusals: a rebinding Host, a missing or wrong token, another origin, a cross-site fetch, a non-JSON body, a too large body, a write by GET', async (t) => {
  const { root, post, get, server } = await app(t);
  const cases: Array<[string, Response, number, string]> = [
    ['rebinding Host', await post('/api/ops/entry.add', ADD, { host: 'evil.example:7373' }), 403, 'the Host header "evil.example:7373" does not name this daemon'],
    ['rebinding Host on a read', await get('/api/health', { host: 'attacker.test' }), 403, 'the Host header "attacker.test" does not name this daemon'],
    ['missing token', await server.request('/api/ops/entry.add', { method: 'POST', headers: { host: HOST, 'content-type': 'application/json' }, body: JSON.stringify(ADD) }), 403, 'this request needs the daemon token (header x-lore-token)'],
    ['wrong token', await post('/api/ops/entry.add', ADD, { 'x-lore-token': 'b'.repeat(64) }), 403, 'this request needs the daemon token (header x-lore-token)'],
    ['cross-origin', await post('/api/ops/entry.add', ADD, { origin: 'http://evil.example' }), 403, 'a request from http://evil.example may not use this daemon'],
    ['cross-site fetch', await post('/api/ops/entry.add', ADD, { 'sec-fetch-site': 'cross-site', origin: `http://${HOST}` }), 403, 'a cross-site request may not use this daemon'],
    ['form post', await post('/api/ops/entry.add', 'type=recommendation', { 'content-type': 'application/x-www-form-urlencoded' }), 415, 'the body must be JSON (content-type: application/json)'],
    ['too large', await post('/api/ops/knowledge.import', { text: 'x'.repeat(MAX_BODY_BYTES) }), 413, `the body is larger than ${MAX_BODY_BYTES} bytes`],
    ['write by GET', await get('/api/ops/entry.add'), 405, 'entry.add changes the store: POST it'],
    ['a check that may write a baseline, by GET', await get(`/api/ops/guard.check?input=${encodeURIComponent('{"files":["a"],"writeBaseline":"/tmp/x.json"}')}`), 405, 'guard.check changes the store: POST it'],
    ['read without the token', await server.request('/api/ops/record.list', { headers: { host: HOST } }), 403, 'this request needs the daemon token (header x-lore-token)'],
    ['cross-site read', await get('/api/health', { 'sec-fetch-site': 'cross-site' }), 403, 'a cross-site request may not use this daemon'],
    ['same-site read', await get('/api/records', { 'sec-fetch-site': 'same-site' }), 403, 'a same-site request may not use this daemon'],
    ['foreign origin on a read', await get('/api/records', { origin: 'http://evil.example' }), 403, 'a request from http://evil.example may not use this daemon'],
    ['a token of other bytes', await post('/api/ops/entry.add', ADD, { 'x-lore-token': `${'a'.repeat(63)}\u00e9` }), 403, 'this request needs the daemon token (header x-lore-token)'],
    ['PUT', await server.request('/api/ops/entry.add', { method: 'PUT', headers: { host: HOST } }), 405, 'PUT is not served here'],
  ];
  for (const [name, response, status, message] of cases) {
    assert.equal(response.status, status, name);
    assert.equal(((await response.json()) as { error: { message: string } }).error.message, message, name);
  }
  assert.equal(existsSync(entryFile(root)), false, 'no refused request wrote anything');
  // localhost names a loopback daemon too.
  assert.equal((await get('/api/health', { host: 'localhost:7373' })).status, 200);
});

test('errors carry the code, message, hint and problems by field; ids go through the CLI\'s checks', async (t) => {
  const { root, post } = await app(t);
  const bad = await post('/api/ops/entry.add', { ...ADD, entry: { ...ENTRY, priority: 'urgent' } });
  assert.equal(bad.status, 422);
  assert.deepEqual(await bad.json(), { error: { code: 'INVALID_RECORD', message: 'the recommendation rec-prefer-small-pure-functions is invalid', problems: [{ severity: 'error', file: '.knowledge/knowledge/recommendations/rec-prefer-small-pure-functions.yaml', pointer: '/priority', message: 'priority must be one of low, medium, high, critical (found "urgent")' }] } });
  const shapeless = await post('/api/ops/entry.add', { type: 'recommendation' });
  assert.equal(shapeless.status, 400);
  const body = (await shapeless.json()) as { error: { code: string; message: string } };
  assert.equal(body.error.code, 'USAGE');
  assert.equal(body.error.message, 'the input of entry.add is invalid');
  const traversal = await post('/api/ops/entry.add', { ...ADD, entry: { ...ENTRY, id: '../../x' } });
  assert.equal(traversal.status, 400);
  const cli = await lore(['add', 'recommendation', '--id', '../../x', '--title', ENTRY.title, '--description', ENTRY.description, '--json'], { cwd: root, env: testEnv({ LORE_NO_DAEMON: '1' }) });
  assert.equal(cli.code, 2);
  assert.deepEqual(await traversal.json(), JSON.parse(cli.stdout));
  const missing = await post('/api/ops/record.show', { id: '../../etc/passwd' });
  assert.equal(missing.status, 404);
  assert.deepEqual(await missing.json(), { error: { code: 'NOT_FOUND', message: 'no record with id "../../etc/passwd"', hint: 'lore list shows every id', problems: [] } });
  const unknown = await post('/api/ops/entry.explode', {});
  assert.equal(unknown.status, 404);
  assert.equal(((await unknown.json()) as { error: { message: string } }).error.message, 'no operation named "entry.explode"');
  const notJson = await post('/api/ops/entry.add', '{"type":');
  assert.equal(notJson.status, 400);
});

test('the UI page: only for the token (the printed link sets a strict cookie), a strict Content-Security-Policy, the libraries from the installed packages; off with --no-ui', async (t) => {
  const { get, server } = await app(t);
  const page = (path: string, headers: Record<string, string> = {}) => server.request(path, { headers: { host: HOST, ...headers } });
  const locked = await page('/');
  assert.equal(locked.status, 401);
  const lockedHtml = await locked.text();
  assert.equal(lockedHtml.includes(TOKEN), false);
  assert.ok(lockedHtml.includes('This page needs the link <code>lore serve</code> printed'));
  assert.equal((await page(`/?token=${'b'.repeat(64)}`)).status, 401);
  const login = await page(`/?token=${TOKEN}`);
  assert.equal(login.status, 303);
  assert.equal(login.headers.get('location'), '/');
  assert.equal(login.headers.get('set-cookie'), `lore_token_7373=${TOKEN}; Path=/; HttpOnly; SameSite=Strict`);
  // Another daemon's cookie (another port) does not open this one's page.
  assert.equal((await page('/', { cookie: `lore_token_7374=${TOKEN}` })).status, 401);
  const ui = await page('/', { cookie: `other=1; lore_token_7373=${TOKEN}` });
  assert.equal(ui.status, 200);
  assert.equal(ui.headers.get('content-security-policy'), CSP);
  assert.match(CSP, /^default-src 'none'; script-src 'self' 'sha256-[A-Za-z0-9+/]+='; style-src 'self';/);
  assert.equal(ui.headers.get('x-frame-options'), 'DENY');
  const html = await ui.text();
  assert.ok(html.includes(`<meta name="lore-token" content="${TOKEN}">`));
  assert.ok(html.includes(`<script type="importmap">${IMPORT_MAP}</script>`));
  const preact = await page('/vendor/preact.js');
  assert.equal(preact.status, 200);
  assert.equal(await preact.text(), readFileSync(new URL('../node_modules/preact/dist/preact.mjs', import.meta.url), 'utf8'));
  for (const path of ['/vendor/left-pad.js', '/static/..%2f..%2fpackage.json', '/app/../package.json', '/nothing']) assert.equal((await get(path)).status, 404, path);
  const { get: apiOnly } = await app(t, false);
  assert.equal((await apiOnly('/')).status, 404);
  assert.equal((await apiOnly('/api/health')).status, 200);
});

test('schemas for forms are served bundled: no $ref leaves the document', async (t) => {
  const { get } = await app(t);
  const response = await get('/api/schemas/ops/entry.add.input.schema.json');
  assert.equal(response.status, 200);
  const text = await response.text();
  assert.equal(/"\$ref":"(?!#)/.test(text), false);
  assert.equal((await get('/api/schemas/../package.json')).status, 404);
});

test('over a socket, a body is capped whether it states its length or comes in chunks, and one within the cap is read whole', async (t) => {
  const { server } = await app(t);
  const { createAdaptorServer } = await import('@hono/node-server');
  const http = createAdaptorServer({ fetch: server.fetch }) as import('node:http').Server;
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => http.close(() => resolve())));
  const { port } = http.address() as import('node:net').AddressInfo;
  // Host names the address the app was made for; the socket is wherever the test server listens.
  const send = (chunks: Buffer[], headers: Record<string, string | number>, method = 'POST', path = '/api/ops/knowledge.query'): Promise<{ status: number; body: string }> => new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, agent: false, headers: { host: HOST, 'content-type': 'application/json', 'x-lore-token': TOKEN, ...headers } }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (part: Buffer) => parts.push(part));
      res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(parts).toString('utf8') }));
    });
    // The server may answer and close before it reads a refused body: that is not the test's failure.
    req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error)));
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
  const refused = { error: { code: 'TOO_LARGE', message: `the body is larger than ${MAX_BODY_BYTES} bytes`, problems: [] } };
  // A valid query padded with spaces to one byte over the cap, sent both ways.
  const over = Buffer.concat([Buffer.from('{"taskDescription":"retry"'), Buffer.alloc(MAX_BODY_BYTES - 26, 0x20), Buffer.from('}')]);
  assert.equal(over.length, MAX_BODY_BYTES + 1);
  const stated = await send([over], { 'content-length': over.length });
  assert.deepEqual([stated.status, JSON.parse(stated.body)], [413, refused]);
  const chunked = await send([over.subarray(0, MAX_BODY_BYTES / 2), over.subarray(MAX_BODY_BYTES / 2)], { 'transfer-encoding': 'chunked' });
  assert.deepEqual([chunked.status, JSON.parse(chunked.body)], [413, refused]);
  // A GET's body is never read, so its size is not judged: it is answered as before.
  const get = await send([over], { 'content-length': over.length }, 'GET', '/api/status');
  assert.equal(get.status, 200, get.body);
  // Within the cap, both ways: the whole body is read (padding of spaces around the JSON included).
  const padded = Buffer.concat([Buffer.from('{"taskDescription":"retry"'), Buffer.alloc(1024 * 1024, 0x20), Buffer.from('}')]);
  const framings: Array<Record<string, string | number>> = [{ 'content-length': padded.length }, { 'transfer-encoding': 'chunked' }];
  for (const headers of framings) {
    const answered = await send([padded.subarray(0, 1000), padded.subarray(1000)], headers);
    assert.equal(answered.status, 200, answered.body);
    assert.deepEqual(Object.keys(JSON.parse(answered.body) as object).sort(), ['considered', 'criticalWarnings', 'learnings', 'prohibitions', 'recommendations', 'semantic', 'summary']);
  }
});

test("a path the input names must be the repository's own: 400, and nothing written", async (t) => {
  const { root, post } = await app(t);
  const outside = tempDir(t);
  const refused = await post('/api/ops/graph.add_entity', { name: 'x', type: 'service', memoryFile: join(outside, 'context.json') });
  assert.equal(refused.status, 400);
  assert.deepEqual(await refused.json(), {
    error: {
      code: 'USAGE',
      message: `memoryFile ${JSON.stringify(join(outside, 'context.json'))} is not inside the repository`,
      hint: `over HTTP and MCP, memoryFile names a file of the repository (${root}) outside .git/ and .knowledge/; the CLI takes any path`,
      problems: [],
    },
  });
  assert.equal(existsSync(join(outside, 'context.json')), false);
  const store = await post('/api/ops/graph.export', { memoryFile: '.knowledge/config.yaml' });
  assert.equal(store.status, 400);
  assert.equal(((await store.json()) as { error: { message: string } }).error.message, 'memoryFile ".knowledge/config.yaml" is inside .knowledge/');
  const inside = await post('/api/ops/graph.add_entity', { name: 'x', type: 'service', memoryFile: 'context.json' });
  assert.equal(inside.status, 200, await inside.clone().text());
  assert.ok(existsSync(join(root, 'context.json')));
});

test('a kind named like a built-in object key (__proto__, constructor) is an unknown kind: 400, not a crash', async (t) => {
  const { get } = await app(t);
  for (const kind of ['__proto__', 'constructor', 'toString']) {
    const response = await get(`/api/records?kind=${kind}`);
    assert.equal(response.status, 400, kind);
    assert.equal(((await response.json()) as { error: { message: string } }).error.message, `unknown kind "${kind}"`);
  }
});

test('a write the store could not read back is refused before anything is written: too deep, too large', async (t) => {
  const { root, post } = await app(t);
  const nested = (depth: number): unknown => {
    let value: unknown = 'leaf';
    for (let i = 0; i < depth; i++) value = [value];
    return value;
  };
  // The entity's value: the record (1), properties (2) and 30 arrays from p's hold a leaf at the limit, 32.
  const atLimit = await post('/api/ops/graph.add_entity', { name: 'deep', type: 'service', properties: { p: nested(30) } });
  assert.equal(atLimit.status, 200, await atLimit.clone().text());
  const tooDeep = await post('/api/ops/graph.add_entity', { name: 'deeper', type: 'service', properties: { p: nested(31) } });
  assert.equal(tooDeep.status, 422);
  assert.deepEqual(await tooDeep.json(), { error: { code: 'INVALID_RECORD', message: 'refusing to write .knowledge/graph/entities/deeper.yaml: the record is invalid', problems: [{ severity: 'error', file: '.knowledge/graph/entities/deeper.yaml', message: 'the value is nested more than 32 levels deep (the limit, limits.max_depth)' }] } });
  const huge = await post('/api/ops/entry.add', { type: 'recommendation', entry: { title: 'Huge', description: 'word '.repeat(220_000) } });
  assert.equal(huge.status, 422);
  assert.match(((await huge.json()) as { error: { problems: Array<{ message: string }> } }).error.problems[0]!.message, /^the file would be \d{7} bytes, over the limit of 1048576 bytes \(limits\.max_file_bytes in config\.yaml\): lore could not read it back$/);
  // An input deeper than any record could be is refused as such, not a crash.
  const abyss = await post('/api/ops/graph.add_entity', `{"name":"abyss","type":"service","properties":{"p":${'['.repeat(100_000)}${']'.repeat(100_000)}}}`);
  assert.equal(abyss.status, 400);
  assert.equal(((await abyss.json()) as { error: { message: string } }).error.message, 'the input of graph.add_entity is nested more than 128 levels deep');
  // Nothing of the refused writes is on disk, and the graph still reads.
  assert.deepEqual(readdirSync(join(root, '.knowledge/graph/entities')), ['deep.yaml']);
  assert.equal(existsSync(join(root, '.knowledge/knowledge/recommendations/rec-huge.yaml')), false);
  const shown = await post('/api/ops/graph.add_entity', { name: 'api', type: 'service' });
  assert.equal(shown.status, 200, await shown.clone().text());
  const validated = await lore(['validate'], { cwd: root, env: testEnv({ LORE_NO_DAEMON: '1' }) });
  assert.equal(validated.code, 0, validated.stdout + validated.stderr);
});

test('the page takes a store folder name as text: $ patterns and {{...}} in it are neither patterns nor places', () => {
  const name = 'a$`b {{IMPORTMAP}} $& $\' <x>';
  const page = String(indexPage(TOKEN, name).body);
  assert.match(page, /\n<title>lore — a\$`b \{\{IMPORTMAP\}\} \$&#38; \$&#39; &#60;x&#62;<\/title>\n/);
  assert.equal(page.split(IMPORT_MAP).length, 2, 'the import map once, in its place');
  assert.match(page, /<script type="importmap">\{"imports"/);
});

test('a body that is not UTF-8 is refused with the place of its first bad byte, nothing written', async (t) => {
  const { root, server } = await app(t);
  const body = Buffer.concat([Buffer.from('{"type":"recommendation","entry":{"title":"Caf'), Buffer.from([0xe9]), Buffer.from('","description":"x"}}')]);
  const response = await server.request('/api/ops/entry.add', { method: 'POST', headers: { host: HOST, 'content-type': 'application/json', 'x-lore-token': TOKEN, origin: `http://${HOST}` }, body });
  assert.equal(response.status, 400);
  assert.deepEqual(await response.json(), { error: { code: 'PARSE', message: 'the body is not valid UTF-8 (byte 0xe9 at line 1, column 47)', problems: [] } });
  assert.equal(existsSync(join(root, '.knowledge/knowledge/recommendations')), false);
});

test('the event stream needs the token or the page cookie of this port: another local user cannot fill its slots', async (t) => {
  const { server } = await app(t);
  const open = async (headers: Record<string, string>): Promise<number> => {
    const response = await server.request('/api/events', { headers: { host: HOST, ...headers } });
    await response.body?.cancel();
    return response.status;
  };
  assert.equal(await open({}), 403);
  assert.equal(await open({ cookie: `lore_token_7374=${TOKEN}` }), 403);
  assert.equal(await open({ cookie: `lore_token_7373=${TOKEN}` }), 200);
  assert.equal(await open({ 'x-lore-token': TOKEN }), 200);
});

test('what no route serves answers in lore\'s error shape, not a line of text', async (t) => {
  const { post } = await app(t);
  for (const path of ['/foo', '//api/ops/x']) {
    const response = await post(path, {});
    assert.equal(response.status, 404, path);
    assert.deepEqual(await response.json(), { error: { code: 'NOT_FOUND', message: `no POST ${path} here`, hint: 'GET /api/ops lists the operations', problems: [] } });
  }
});
