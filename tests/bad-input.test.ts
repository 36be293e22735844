// Untrusted knowledge files, plans and inputs: bytes that are not UTF-8, JSON that is not JSON,
// nesting deeper than the limit, huge plans, files that are not ours to overwrite, and names
// Windows cannot hold. Each is refused with the file, line and column, never crashes or guesses.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { isValidId } from '../src/store/ids.js';
import { parseText } from '../src/store/parse.js';
import { codeFrame } from '../src/store/text-position.js';
import { inProcess, lore as loreProcess, LORE_BIN } from './helpers/cli.js';
import { DAG_LOG, dagStore, node } from './helpers/dag.js';
import { configYaml, entry, entryFiles, knowledgeStore } from './helpers/knowledge.js';
import { gitRepo, gitSync, tempDir, tempStore, testEnv, writeFiles } from './helpers/temp.js';

const { lore, loreJson } = inProcess;

const PRO = '.knowledge/knowledge/prohibitions';

/** A valid prohibition as YAML (without the schema comment line lore writes). */
function entryYaml(id: string): string {
  return `id: ${id}\ntype: prohibition\ntitle: T\ndescription: D\nscope: global\nkeywords: []\npriority: high\nsource: manual\ncreatedAt: "2026-01-01T00:00:00.000Z"\nupdatedAt: "2026-01-01T00:00:00.000Z"\ncreatedBy: me\nenabled: true\n`;
}

/** The store files of one prohibition whose description holds `bytes` (raw, maybe not UTF-8). */
function withBytes(root: string, id: string, bytes: Buffer): string {
  const path = join(root, PRO, `${id}.yaml`);
  const text = readFileSync(path);
  const at = text.indexOf('Description of');
  writeFileSync(path, Buffer.concat([text.subarray(0, at), bytes, text.subarray(at)]));
  return path;
}

describe('bytes that are not UTF-8', () => {
  it('reports a record file with the line and column of the first bad byte, and lore edit leaves the file alone', async (t) => {
    const { root } = await knowledgeStore(t, [entry({ id: 'pro-x', priority: 'critical' })]);
    const path = withBytes(root, 'pro-x', Buffer.from([0x41, 0xff]));
    const before = readFileSync(path);
    const validate = await lore(['validate'], { cwd: root });
    assert.deepEqual(validate, { code: 1, stdout: `${PRO}/pro-x.yaml:5:15: error: the file is not valid UTF-8 (byte 0xff)\nchecked 1 record file and 0 logs: 1 error, 0 warnings\n`, stderr: '' });
    const edit = await lore(['edit', 'pro-x', '--set', 'priority=high'], { cwd: root });
    assert.deepEqual(edit, { code: 1, stdout: '', stderr: `error: the entry pro-x is invalid\n${PRO}/pro-x.yaml:5:15: error: the file is not valid UTF-8 (byte 0xff)\nhint: fix it, then run "lore validate"\n` });
    assert.deepEqual(readFileSync(path), before);
  });

  it('stops the commit guard on a staged record that is not UTF-8', async (t) => {
    const repo = gitRepo(t, { '.knowledge/config.yaml': configYaml(), ...entryFiles([entry({ id: 'pro-x' })]) });
    withBytes(repo, 'pro-x', Buffer.from([0xe2, 0x28, 0xa1]));
    gitSync(repo, ['add', '-A']);
    const result = await lore(['check', '--staged'], { cwd: repo });
    // Invalid knowledge in the change blocks it (exit 1), naming the file, line and column.
    assert.deepEqual([result.code, result.stdout.split('\n').slice(2, 4)], [1, ['BLOCKED the knowledge this change brings must parse and validate, so the store stays valid:', `${PRO}/pro-x.yaml:5:14: error: the file is not valid UTF-8 (byte 0xe2)`]]);
  });

  it('reports config.yaml that is not UTF-8', async (t) => {
    const root = tempStore(t);
    writeFileSync(join(root, '.knowledge/config.yaml'), Buffer.from('version: 1\nproject: caf\xe9\n', 'latin1'));
    const result = await lore(['validate'], { cwd: root });
    assert.deepEqual([result.code, result.stdout.split('\n')[0]], [1, '.knowledge/config.yaml:2:13: error: the file is not valid UTF-8 (byte 0xe9)']);
  });

  it('refuses input on stdin or in a file that is not UTF-8, naming the line and column', async (t) => {
    const { root } = await knowledgeStore(t, []);
    const input = Buffer.concat([Buffer.from('{"task": {"description": "x"},\n "plan": {"approach": "caf'), Buffer.from([0xe9]), Buffer.from('", "fileChanges": []}}')]);
    writeFileSync(join(root, 'entry.yaml'), Buffer.concat([Buffer.from('title: T\ndescription: '), Buffer.from([0xc0, 0xaf]), Buffer.from('\n')]));
    const plan = await new Promise<{ code: number; stderr: string }>((resolve) => {
      const child = execFile(process.execPath, [LORE_BIN, 'check-plan'], { cwd: root, env: testEnv() }, (error, _stdout, stderr) => resolve({ code: error === null ? 0 : (error.code as number), stderr }));
      child.stdin!.end(input);
    });
    assert.deepEqual(plan, { code: 1, stderr: 'error: <stdin> is not valid UTF-8\n<stdin>:2:27: error: the input is not valid UTF-8 (byte 0xe9)\n' });
    const add = await lore(['add', 'learning', '--from-file', 'entry.yaml'], { cwd: root });
    assert.deepEqual(add, { code: 1, stdout: '', stderr: 'error: entry.yaml is not valid UTF-8\nentry.yaml:2:14: error: the file is not valid UTF-8 (byte 0xc0)\n' });
  });

  it('skips a log line that is not UTF-8 and answers from the rest', async (t) => {
    const cwd = dagStore(t, [node('a', 1), node('b', 2, { parents: ['a'] }), node('c', 3, { parents: ['a'] })]);
    const log = readFileSync(join(cwd, DAG_LOG));
    const second = log.indexOf('thought b');
    writeFileSync(join(cwd, DAG_LOG), Buffer.concat([log.subarray(0, second), Buffer.from([0xfe]), log.subarray(second)]));
    const result = await lore(['dag', 'heads', '--project', 'demo'], { cwd });
    assert.deepEqual(result, { code: 0, stdout: 'c  actor: thought c [task]\n', stderr: `${DAG_LOG}:2:${second - log.indexOf('\n') }: warning: line 2 is not valid UTF-8 (byte 0xfe) and was skipped\n` });
  });
});

describe('JSON that is not JSON', () => {
  const broken = '{"title": "x",\n "description": "y" "keywords": []}';
  const expected = (file: string): string => `${file}:2:21: error: JSON syntax: expected ',' or '}' after a property value (found '"')`;

  it('says JSON, with line and column, for a .json record file', async (t) => {
    const root = tempStore(t, { '.knowledge/config.yaml': configYaml(), [`${PRO}/pro-json.json`]: broken });
    const result = await lore(['validate'], { cwd: root });
    assert.deepEqual([result.code, result.stdout.split('\n')[0]], [1, expected(`${PRO}/pro-json.json`)]);
  });

  it('says JSON, with line and column, for every command that reads JSON input', async (t) => {
    const { root } = await knowledgeStore(t, []);
    writeFileSync(join(root, 'in.json'), broken);
    writeFileSync(join(root, 'in.ndjson'), `{"id": "pro-a", "type": "prohibition", "title": "A", "description": "a"}\n${broken.replace('\n', '')}\n`);
    const cases: Array<[string[], string | undefined, number, string]> = [
      [['add', 'prohibition', '--from-file', 'in.json'], undefined, 1, expected('in.json')],
      [['check-plan'], '{"task": {"description": "x"},\n "plan": {"approach": "y" "fileChanges": []}}', 1, `<stdin>:2:27: error: JSON syntax: expected ',' or '}' after a property value (found '"')`],
      [['check-plan', '--task', 'in.json', '--plan', 'in.json'], undefined, 1, expected('in.json')],
      [['dag', 'append', '--from-file', '-'], broken, 2, expected('<stdin>')],
      [['graph', 'apply', 'in.json'], undefined, 1, expected('in.json')],
      [['graph', 'show', '--memory-file', 'in.json'], undefined, 1, expected('in.json')],
      [['turn', 'record', '--from-file', 'in.json'], undefined, 1, expected('in.json')],
      [['import', 'in.ndjson'], undefined, 1, "in.ndjson:2:35: error: JSON syntax: expected ',' or '}' after a property value (found '\"')"],
    ];
    for (const [args, input, code, problem] of cases) {
      const result = await lore(args, { cwd: root, ...(input === undefined ? {} : { input }) });
      assert.deepEqual([result.code, result.stderr.split('\n')[1]], [code, problem], args.join(' '));
    }
  });

  it('still reads YAML on stdin, also when it starts like JSON', async (t) => {
    const repo = gitRepo(t, { '.knowledge/config.yaml': configYaml() });
    const result = await lore(['add', 'learning', '--from-file', '-'], { cwd: repo, input: '{title: Retry with backoff, description: Fixed delays synchronise clients.}\n' });
    assert.deepEqual(result, { code: 0, stdout: 'added learn-retry-with-backoff (.knowledge/knowledge/learnings/learn-retry-with-backoff.yaml)\n', stderr: '' });
  });

  it('refuses repeated keys and locates JSON pointers in a .json text', () => {
    assert.deepEqual(parseText('{"a": 1,\n "a": 2}', 'x.json').problems.map((p) => [p.line, p.column, p.message]), [[2, 2, 'JSON syntax: the key "a" appears twice in one object; keys must be unique']]);
    const parsed = parseText('{\n  "a": {"b": [1, 2, {"c": 3}]},\n  "d": "x"\n}', 'x.json');
    assert.deepEqual(parsed.locateAll([{ pointer: '/a/b/2/c' }, { pointer: '/d', atKey: true }, { pointer: '/a/missing' }]).map((at) => [at?.line, at?.column]), [[2, 27], [3, 3], [2, 8]]);
  });
});

describe('nesting deeper than the limit', () => {
  const message = (limit: number): string => `the value is nested more than ${limit} levels deep (the limit, limits.max_depth)`;

  it('names the limit for record files nested 100,000 deep, YAML and JSON alike', async (t) => {
    const root = tempStore(t, {
      '.knowledge/config.yaml': configYaml(),
      [`${PRO}/pro-flow.yaml`]: `id: pro-flow\nkeywords: ${'['.repeat(100_000)}\n`,
      [`${PRO}/pro-block.yaml`]: `id: pro-block\nkeywords:\n${'- '.repeat(100_000)}x\n`,
      [`${PRO}/pro-json.json`]: `{"id": "pro-json", "keywords": ${'['.repeat(100_000)}${']'.repeat(100_000)}}`,
    });
    const result = await lore(['validate'], { cwd: root });
    assert.equal(result.code, 1);
    assert.deepEqual(result.stdout.split('\n').filter((l) => l.startsWith('.knowledge')), [
      `${PRO}/pro-block.yaml:3:63: error: ${message(32)}`,
      `${PRO}/pro-flow.yaml:2:42: error: ${message(32)}`,
      `${PRO}/pro-json.json:1:63: error: ${message(32)}`,
    ]);
  });

  it('follows limits.max_depth of config.yaml', async (t) => {
    const root = tempStore(t, { '.knowledge/config.yaml': configYaml('limits:\n  max_depth: 4\n'), ...entryFiles([entry({ id: 'pro-deep', examples: [{ scenario: 's', goodApproach: 'g' }] })]) });
    writeFileSync(join(root, PRO, 'pro-deep.yaml'), readFileSync(join(root, PRO, 'pro-deep.yaml'), 'utf8').replace('keywords: []', 'keywords: [[[[x]]]]'));
    const result = await lore(['validate'], { cwd: root });
    assert.deepEqual([result.code, result.stdout.split('\n')[0]], [1, `${PRO}/pro-deep.yaml:10:14: error: ${message(4)}`]);
  });

  it('names the limit for input on stdin, JSON or YAML', async (t) => {
    const { root } = await knowledgeStore(t, []);
    const plan = await lore(['check-plan'], { cwd: root, input: `{"task": {"description": "x"}, "plan": ${'['.repeat(100_000)}}` });
    assert.deepEqual([plan.code, plan.stderr.split('\n').slice(0, 2)], [1, ['error: could not read the task and plan from <stdin>', `<stdin>:1:71: error: ${message(32)}`]]);
    const block = await lore(['add', 'learning', '--from-file', '-'], { cwd: root, input: `title: x\ndetails:\n${'- '.repeat(100_000)}x\n` });
    assert.deepEqual([block.code, block.stderr.split('\n').slice(0, 2)], [1, ['error: could not read the entry in <stdin>', `<stdin>:3:63: error: ${message(32)}`]]);
  });
});

describe('large YAML', () => {
  it('refuses YAML input over 4 MiB, asking for JSON, but reads a record as large as max_file_bytes allows', async (t) => {
    const big = `title: x\ndescription: ${'y'.repeat(5 * 1024 * 1024)}\n`;
    const root = tempStore(t, { '.knowledge/config.yaml': configYaml('limits:\n  max_file_bytes: 8388608\n'), [`${PRO}/pro-big.yaml`]: entryYaml('pro-big').replace('keywords: []', `keywords: []\ndetails: ${'z'.repeat(5 * 1024 * 1024)}`) });
    const input = await lore(['add', 'learning', '--from-file', '-'], { cwd: root, input: big });
    assert.deepEqual(input, { code: 1, stdout: '', stderr: `error: could not read the entry in <stdin>\n<stdin>:1:1: error: the YAML text is ${big.length} characters, over the limit of 4194304 for YAML (its parser needs many times the text in memory); give it as JSON\n` });
    assert.deepEqual(await lore(['validate'], { cwd: root }), { code: 0, stdout: 'checked 1 record file and 0 logs: 0 errors, 0 warnings\n', stderr: '' });
  });
});

describe('check-plan on a huge plan', () => {
  /** Peak RSS (MiB) of `lore check-plan --json` reading `input` on stdin, as the child itself reports it on exit. */
  function peakRss(cwd: string, hook: string, input: string): Promise<{ code: number; mib: number; stdout: string }> {
    return new Promise((resolve, reject) => {
      const child = execFile(process.execPath, ['--import', pathToFileURL(hook).href, LORE_BIN, 'check-plan', '--json'], { cwd, env: testEnv(), maxBuffer: 256 * 1024 * 1024 }, (error, stdout, stderr) => {
        const peak = /maxRSS (\d+)/.exec(stderr);
        if (peak === null) return reject(new Error(`no peak reported: ${stderr}`));
        resolve({ code: error === null ? 0 : (error.code as number), mib: Number(peak[1]) / 1024, stdout });
      });
      child.stdin!.end(input);
    });
  }

  it('stays within a small multiple of the plan size (a 16 MiB plan)', async (t) => {
    const hook = join(tempDir(t), 'peak.mjs');
    writeFileSync(hook, "process.on('exit', () => process.stderr.write(`maxRSS ${process.resourceUsage().maxRSS}\\n`));\n");
    const { root } = await knowledgeStore(t, [entry({ id: 'pro-deploy', keywords: ['deploy on friday', 'secret*'], globs: ['**/*.pem'], priority: 'critical' }), entry({ id: 'rec-retry', keywords: ['retry'] })]);
    const words = ['deploy', 'database', 'migration', 'config', 'service', 'handler', 'retry', 'cache', 'index', 'schema'];
    const approach = Array.from({ length: 900_000 }, (_, i) => `${words[i % words.length]}${i % 997}`).join(' ');
    const fileChanges = Array.from({ length: 120_000 }, (_, i) => ({ path: `src/module${i % 500}/file${i}.ts`, change: 'modify' }));
    const big = JSON.stringify({ task: { description: 'a big plan' }, plan: { approach: `${approach} deploy on friday`, fileChanges: [...fileChanges, { path: 'certs/server.pem' }] } });
    const size = Buffer.byteLength(big) / 1024 / 1024;
    assert.ok(size > 15, `the plan is ${size} MiB`);
    const small = await peakRss(root, hook, JSON.stringify({ task: { description: 'a small plan' }, plan: { approach: 'x', fileChanges: [] } }));
    const large = await peakRss(root, hook, big);
    const result = JSON.parse(large.stdout) as { blockers: Array<{ knowledge: { id: string }; matches: Array<{ reason: string }> }> };
    assert.deepEqual([large.code, result.blockers.map((b) => [b.knowledge.id, b.matches.map((m) => m.reason)])], [1, [['pro-deploy', ['File certs/server.pem matches prohibited glob **/*.pem', 'Plan mentions prohibited keyword: deploy on friday']]]]);
    // Before: about 65 times the plan (YAML's syntax tree of it, and one string per word).
    t.diagnostic(`peak RSS ${large.mib.toFixed(0)} MiB for a ${size.toFixed(1)} MiB plan, ${small.mib.toFixed(0)} MiB for a tiny one`);
    assert.ok(large.mib - small.mib < 10 * size, `check-plan on a ${size.toFixed(1)} MiB plan peaked at ${large.mib.toFixed(0)} MiB (${small.mib.toFixed(0)} MiB for a tiny plan)`);
  });

  it('lists at most 100 matched paths per prohibition and counts the rest', async (t) => {
    const { root } = await knowledgeStore(t, [entry({ id: 'pro-ts', globs: ['**/*.ts'], priority: 'high' })]);
    const input = JSON.stringify({ task: { description: 'x' }, plan: { approach: 'y', fileChanges: Array.from({ length: 150 }, (_, i) => ({ path: `src/f${i}.ts` })) } });
    const json = await loreJson<{ warnings: Array<{ matches: unknown[]; unlistedPaths?: number }> }>(['check-plan'], { cwd: root, input });
    assert.deepEqual([json.code, json.json.warnings[0]!.matches.length, json.json.warnings[0]!.unlistedPaths], [0, 100, 50]);
    const text = await lore(['check-plan'], { cwd: root, input });
    assert.deepEqual(text.stdout.split('\n').slice(100, 104), ['           File src/f98.ts matches prohibited glob **/*.ts', '           File src/f99.ts matches prohibited glob **/*.ts', '           ... and 50 more files', 'checked 1 applicable prohibition against 150 file changes and the approach']);
  });
});

describe('lore graph export --memory-file', () => {
  const storeWithGraph = async (t: Parameters<typeof tempStore>[0]): Promise<string> => {
    const root = tempStore(t, { '.knowledge/config.yaml': configYaml() });
    await lore(['graph', 'add-entity', '--name', 'api', '--type', 'service'], { cwd: root });
    return root;
  };

  it('refuses to overwrite a file that is not a memory file unless --force', async (t) => {
    const root = await storeWithGraph(t);
    writeFileSync(join(root, 'notes.txt'), 'my notes\n');
    writeFileSync(join(root, 'memory.jsonl'), '{"type":"entity","name":"x","entityType":"t","observations":[]}\n');
    for (const file of ['notes.txt', 'memory.jsonl']) {
      const before = readFileSync(join(root, file), 'utf8');
      const refused = await lore(['graph', 'export', '--memory-file', file], { cwd: root });
      assert.deepEqual(refused, { code: 2, stdout: '', stderr: `error: ${file} is not a memory file (one JSON object with "entities" and "relationships"), so it was not replaced\nhint: pass --force to replace it anyway, or choose another path\n` });
      assert.equal(readFileSync(join(root, file), 'utf8'), before);
    }
    const forced = await lore(['graph', 'export', '--memory-file', 'notes.txt', '--force'], { cwd: root });
    assert.deepEqual(forced, { code: 0, stdout: 'wrote notes.txt: 1 entity, 0 relationships\n', stderr: '' });
    assert.deepEqual(JSON.parse(readFileSync(join(root, 'notes.txt'), 'utf8')), { entities: [{ name: 'api', type: 'service', description: '', tags: [], properties: {} }], relationships: [] });
  });

  it('writes over a memory file, an empty file or no file at all', async (t) => {
    const root = await storeWithGraph(t);
    writeFileSync(join(root, 'old.json'), '{"entities": [], "relationships": []}\n');
    writeFileSync(join(root, 'empty.json'), '');
    for (const file of ['old.json', 'empty.json', 'new.json']) {
      const result = await lore(['graph', 'export', '--memory-file', file], { cwd: root });
      assert.deepEqual(result, { code: 0, stdout: `wrote ${file}: 1 entity, 0 relationships\n`, stderr: '' });
    }
  });
});

describe('Windows device names', () => {
  it('refuses them as ids, in any case and with an extension', () => {
    for (const id of ['CON', 'con', 'Prn', 'aux', 'NUL', 'nul.txt', 'con.yaml', 'COM1', 'com9.x', 'LPT1', 'lpt9', 'COM0']) assert.equal(isValidId(id), false, id);
    for (const id of ['console', 'con-1', 'nullable', 'com10', 'lpt', 'auxiliary', 'pro-con']) assert.equal(isValidId(id), true, id);
  });

  it('refuses them wherever an id becomes a file name', async (t) => {
    const repo = gitRepo(t, { '.knowledge/config.yaml': configYaml() });
    const reason = (name: string): string => `${name} is a Windows device name (CON, PRN, AUX, NUL, COM0-COM9, LPT0-LPT9), so no file can have it`;
    assert.deepEqual(await lore(['add', 'prohibition', '--id', 'nul.txt', '--title', 'T', '--description', 'D'], { cwd: repo }), { code: 2, stdout: '', stderr: `error: id "nul.txt" is not allowed: ${reason('NUL')}\n` });
    const turn = ['turn', 'record', '--task', 'TASK-1', '--turn', '1', '--player-decision', 'p', '--coach-decision', 'approve', '--progress', 'done'];
    assert.deepEqual(await lore([...turn, '--feature', 'Aux'], { cwd: repo }), { code: 2, stdout: '', stderr: `error: feature "Aux" is not allowed: ${reason('AUX')}\n` });
    assert.deepEqual(await lore([...turn, '--feature', 'FEAT-1', '--project', 'com1'], { cwd: repo }), { code: 2, stdout: '', stderr: `error: project "com1" is not allowed: ${reason('COM1')}\n` });
  });

  it('reports a record whose file name would be a device name instead of failing', async (t) => {
    const root = tempStore(t, {
      '.knowledge/config.yaml': configYaml(),
      ...entryFiles([entry({ id: 'con' })]),
      '.knowledge/overrides/aux.yaml': 'project: aux\n',
    });
    const result = await lore(['validate'], { cwd: root });
    assert.equal(result.code, 1);
    assert.deepEqual(result.stdout.split('\n').filter((l) => l.startsWith('.knowledge')), [
      '.knowledge/knowledge/learnings/con.yaml:2:5: error: id "con" is not allowed: CON is a Windows device name (CON, PRN, AUX, NUL, COM0-COM9, LPT0-LPT9), so no file can have it',
      '.knowledge/overrides/aux.yaml:1:1: error: the file name aux.yaml is not allowed: AUX is a Windows device name (CON, PRN, AUX, NUL, COM0-COM9, LPT0-LPT9), so no file can have it',
    ]);
  });

  it('gives an entity named like a device a safe file name instead of refusing it', async (t) => {
    const root = tempStore(t, { '.knowledge/config.yaml': configYaml() });
    const hash = (name: string): string => createHash('sha256').update(name).digest('hex').slice(0, 12);
    for (const name of ['Con', 'nul']) {
      const result = await lore(['graph', 'add-entity', '--name', name, '--type', 'service'], { cwd: root });
      assert.deepEqual(result, { code: 0, stdout: `added entity "${name}" (service)\nwrote .knowledge/graph/entities/${name.toLowerCase()}-${hash(name)}.yaml\n`, stderr: '' });
    }
    assert.deepEqual((await loreJson<{ entities: Array<{ name: string }> }>(['graph', 'show'], { cwd: root })).json.entities.map((e) => e.name), ['Con', 'nul']);
  });
});

describe('code frames of long lines', () => {
  it('show 120 characters around the column, the caret under it, whatever the length of the line', () => {
    const line = `${'a'.repeat(300_000)}BAD${'b'.repeat(300_000)}`;
    const text = `first\n${line}\nlast\n`;
    assert.equal(codeFrame(text, 2, 300_001, 3), [
      '  1 | first',
      `> 2 | ...${'a'.repeat(40)}BAD${'b'.repeat(71)}...`,
      `    | ${' '.repeat(43)}^^^`,
    ].join('\n'));
    // Near the start of the line, and at its end.
    assert.equal(codeFrame(text, 2, 5), ['  1 | first', `> 2 | ${'a'.repeat(117)}...`, '    |     ^'].join('\n'));
    assert.equal(codeFrame(text, 2, 600_004), ['  1 | first', `> 2 | ...${'b'.repeat(117)}`, `    | ${' '.repeat(120)}^`].join('\n'));
  });

  it('keep validate within memory for a record of 42,000 unknown fields on one line', async (t) => {
    const root = tempStore(t, { '.knowledge/config.yaml': 'version: 1\n' });
    const value: Record<string, unknown> = { id: 'rec-z', type: 'recommendation', title: 'Z', description: 'z', scope: 'global', keywords: [], priority: 'medium', source: 'manual', createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z', createdBy: 'x', enabled: true };
    for (let i = 0; i < 42_000; i++) value[`u${i}`] = 1;
    writeFiles(root, { '.knowledge/knowledge/recommendations/rec-z.json': JSON.stringify(value) });
    // A process of its own, its heap capped: before, the frames took 4 GB and V8 gave up.
    const result = await loreProcess(['validate', '--json'], { cwd: root, env: testEnv({ NODE_OPTIONS: '--max-old-space-size=512' }) });
    assert.equal(result.code, 1, result.stderr.slice(0, 2000));
    const problems = (JSON.parse(result.stdout) as { problems: Array<{ message: string; frame: string }> }).problems;
    assert.equal(problems.length, 42_000);
    assert.ok(problems.every((p) => p.frame.length < 600));
  });
});

describe('limits config.yaml may set', () => {
  it('are capped: a store cannot lift what protects its readers (depth 128, aliases 10,000, files 64 MiB)', async (t) => {
    for (const [line, message] of [
      ['  max_depth: 100000000', 'limits.max_depth must be <= 128 (found 100000000)'],
      ['  max_yaml_aliases: 100000000', 'limits.max_yaml_aliases must be <= 10000 (found 100000000)'],
      ['  max_file_bytes: 1000000000', 'limits.max_file_bytes must be <= 67108864 (found 1000000000)'],
    ] as const) {
      const root = tempStore(t, { '.knowledge/config.yaml': `version: 1\nlimits:\n${line}\n` });
      const result = await loreProcess(['validate', '--json'], { cwd: root });
      assert.equal(result.code, 1, result.stderr);
      assert.deepEqual((JSON.parse(result.stdout) as { problems: Array<{ file: string; message: string }> }).problems.map((p) => [p.file, p.message]), [['.knowledge/config.yaml', message]]);
    }
  });
});
