// No false blocks: every rule of every starter pack runs over a realistic corpus of code — the
// installed node_modules of this repository, every file's path and every line of its text files
// as if a commit added them — through the guard's own compile and scan (prefilter first, as the
// hook runs), and blocks nothing.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, realpathSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { listPacks } from '../src/entities/packs.js';
import { splitLines, type ChangedFile } from '../src/guard/added-lines.js';
import { compileRules } from '../src/guard/rules.js';
import { scan, type Finding } from '../src/guard/scan.js';

const CORPUS = realpathSync(fileURLToPath(new URL('../node_modules', import.meta.url)));

/** Every file under the corpus, as a path relative to the repository (node_modules/...). */
function walk(dir: string, files: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, files);
    else if (entry.isFile()) files.push(path);
  }
  return files;
}

/** A file as the guard sees an added file: its path, and its lines when it is text (no NUL byte). */
function added(path: string): ChangedFile {
  const bytes = readFileSync(path);
  const text = bytes.includes(0) ? undefined : bytes.toString('utf8');
  return { path: `node_modules/${relative(CORPUS, path)}`, status: 'added', added: text === undefined ? [] : splitLines(text).map((line, i) => ({ line: i + 1, text: line })) };
}

const paths = walk(CORPUS).sort();
const files = paths.map(added);
const lines = files.reduce((n, f) => n + f.added.length, 0);
const rules = (await listPacks()).flatMap((pack) => pack.entries.map((entry) => ({ entry, origin: 'committed' as const, file: `packs/${pack.name}/${entry.id}.yaml` })));

describe('the starter packs on a realistic corpus', () => {
  it(`block nothing in this repository's node_modules (${files.length} files, ${lines} lines, ${rules.length} rules)`, () => {
    // Canaries after the corpus: each rule's must-match paths and lines, so the scan provably finds what it should.
    const canaries: ChangedFile[] = rules.flatMap(({ entry }) => (entry.tests?.match ?? []).filter((input) => input.plan === undefined).map((input, i) => ({
      path: input.path ?? `canary/${entry.id}-${i}.txt`, status: 'added' as const, added: input.line === undefined ? [] : [{ line: 1, text: input.line }],
    })));
    const started = Date.now();
    const { findings, scanned } = scan([{ files: [...files, ...canaries] }], compileRules(rules));
    const inCorpus = findings.filter((f: Finding) => f.path.startsWith('node_modules/'));
    const blocking = inCorpus.filter((f) => f.priority === 'critical').map((f) => `${f.entryId} ${f.path}:${f.line ?? ''} ${f.matcher}`);
    assert.deepEqual(blocking, []);
    assert.deepEqual([...new Set(findings.filter((f) => !f.path.startsWith('node_modules/')).map((f) => f.entryId))].sort(), rules.map((r) => r.entry.id).sort());
    assert.equal(scanned.files, files.length + canaries.length);
    assert.equal(scanned.lines, lines + canaries.filter((c) => c.added.length > 0).length);
    // The warnings (non-critical rules) the corpus gives, for the record.
    const warnings = inCorpus.filter((f) => f.priority !== 'critical').map((f) => `${f.entryId} ${f.path}:${f.line ?? ''}`);
    console.log(`scanned ${scanned.files} files, ${scanned.lines} lines, ${scanned.bytes} bytes in ${Date.now() - started} ms: 0 blocks, ${warnings.length} warnings${warnings.length === 0 ? '' : `: ${warnings.slice(0, 5).join(', ')}`}`);
  });
});
