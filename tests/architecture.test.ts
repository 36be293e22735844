// The layering of AGENTS.md, read by dependency-cruiser: no cycles, dependencies pointing one way,
// adapters on top; and the commit hook's static import graph free of yaml, ajv, the MCP SDK and
// the daemon (they load lazily, if at all).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { tempDir, writeFiles } from './helpers/temp.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DEPCRUISE = join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');

interface Cruise {
  summary: { violations: Array<{ rule: { name: string }; from: string; to: string }> };
  modules: Array<{ source: string; dependencies: Array<{ resolved: string; dynamic: boolean; dependencyTypes: string[] }> }>;
}

function cruise(cwd: string, config: string): Promise<Cruise> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [DEPCRUISE, 'src', '--config', config, '--output-type', 'json'], { cwd, maxBuffer: 256 * 1024 * 1024 }, (error, stdout, stderr) => {
      // The tool exits non-zero when it finds violations; the JSON says which.
      if (stdout.trim() === '') return reject(new Error(`dependency-cruiser failed: ${error?.message ?? ''} ${stderr}`));
      resolve(JSON.parse(stdout) as Cruise);
    });
  });
}

const result = cruise(ROOT, '.dependency-cruiser.cjs');

describe('the architecture', () => {
  it('has no cycle and no import against the layering', async () => {
    assert.deepEqual((await result).summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`), []);
  });

  it('would notice an operation that imports the CLI, and a cycle', async (t) => {
    const dir = tempDir(t, 'lore-arch-');
    writeFiles(dir, {
      'src/ops/op.ts': "import { x } from '../cli/x.js';\nexport const y = x;\n",
      'src/cli/x.ts': 'export const x = 1;\n',
      'src/a.ts': "import { b } from './b.js';\nexport const a = b;\n",
      'src/b.ts': "import { a } from './a.js';\nexport const b = () => a;\n",
      'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', strict: true } }),
    });
    const found = await cruise(dir, join(ROOT, '.dependency-cruiser.cjs'));
    const rules = found.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`).sort();
    assert.deepEqual(rules, ['adapters-on-top: src/ops/op.ts → src/cli/x.ts', 'no-circular: src/a.ts → src/b.ts', 'ops-no-adapter: src/ops/op.ts → src/cli/x.ts']);
  });

  it('keeps yaml, ajv, the MCP SDK, the daemon and the UI off the commit hook\'s static import graph', async () => {
    const { modules } = await result;
    const bySource = new Map(modules.map((m) => [m.source, m]));
    // What bin/lore.js loads for `lore hook pre-commit` before a cache miss.
    const start = ['src/guard/staged-change.ts', 'src/cli/main.ts', 'src/cli/commands/hook-pre-commit.ts'];
    const reached = new Set<string>();
    const paths = new Map<string, string[]>(start.map((s) => [s, [s]]));
    const queue = [...start];
    while (queue.length > 0) {
      const source = queue.shift()!;
      if (reached.has(source)) continue;
      reached.add(source);
      for (const dep of bySource.get(source)?.dependencies ?? []) {
        if (dep.dynamic || dep.dependencyTypes.includes('type-only') || dep.dependencyTypes.includes('type-import')) continue;
        if (!paths.has(dep.resolved)) paths.set(dep.resolved, [...paths.get(source)!, dep.resolved]);
        queue.push(dep.resolved);
      }
    }
    assert.ok(reached.has('src/guard/check.ts'), 'the walk reaches the guard');
    const heavy = [...reached].filter((m) => /node_modules\/(yaml|ajv|@modelcontextprotocol)\/|^src\/(daemon|mcp|ui)\//.test(m));
    assert.deepEqual(heavy.map((m) => paths.get(m)!.join(' → ')), []);
  });
});
