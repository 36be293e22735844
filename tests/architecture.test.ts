// The layering of AGENTS.md, read by dependency-cruiser: no cycles, dependencies pointing one way,
// adapters on top; the commit hook's static import graph free of yaml, ajv, the MCP SDK and the
// daemon, and the read commands' free of yaml (they load lazily, if at all).
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

/**
 * The modules the static imports from `start` reach (not dynamic or type-only imports), and the
 * import path to each one that matches `heavy`.
 */
function walk(modules: Cruise['modules'], start: string[], heavy: RegExp): { reached: Set<string>; heavy: string[] } {
  const bySource = new Map(modules.map((m) => [m.source, m]));
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
  return { reached, heavy: [...reached].filter((m) => heavy.test(m)).map((m) => paths.get(m)!.join(' → ')) };
}

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
    // What bin/lore.js loads for `lore hook pre-commit` before a cache miss.
    const { reached, heavy } = walk((await result).modules, ['src/guard/staged-change.ts', 'src/cli/main.ts', 'src/cli/commands/hook-pre-commit.ts'], /node_modules\/(yaml|ajv|@modelcontextprotocol)\/|^src\/(daemon|mcp|ui)\//);
    assert.ok(reached.has('src/guard/check.ts'), 'the walk reaches the guard');
    assert.deepEqual(heavy, []);
  });

  it('keeps yaml (about 45 ms to load) off the static import graphs of the commands that only read', async () => {
    const commands = [['list', 'store/list'], ['show', 'store/show'], ['status', 'store/status'], ['validate', 'store/validate'], ['query', 'knowledge/query'], ['check-plan', 'knowledge/check'], ['graph-show', 'graph/show'], ['turn-list', 'player-coach/turn-list'], ['mode-list', 'player-coach/mode-list'], ['gates-list', 'player-coach/gates-list'], ['roles-show', 'player-coach/roles-show'], ['dag-get', 'dag/get']];
    const start = ['src/cli/main.ts', ...commands.flatMap(([command, op]) => [`src/cli/commands/${command}.ts`, `src/ops/${op}.ts`])];
    const { reached, heavy } = walk((await result).modules, start, /node_modules\/yaml\//);
    assert.ok(reached.has('src/store/read.ts') && reached.has('src/graph/store-graph.ts'), 'the walk reaches the store and the graph');
    assert.deepEqual(heavy, []);
  });
});
