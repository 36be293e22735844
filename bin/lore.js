#!/usr/bin/env node
// Tiny shim: the CLI runs compiled JavaScript so it starts fast (no TypeScript loader).
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
const args = process.argv.slice(2);
// lore hook status's dry run (LORE_HOOK_PROBE) only asks whether the hook reaches lore: it reads nothing.
const hook = args[0] === 'hook' && args[1] === 'pre-commit' && !process.env.LORE_HOOK_PROBE;
// The commands that read the knowledge index stat every entry file: find does that on the other core meanwhile.
const look = args[0] === 'query' || args[0] === 'check-plan' || (args[0] === 'prompt' && args[1] === 'agent');
// Every command but the hook runs the CLI bundled, with its code cache, through a loader required
// at once (src/cli/load.ts), unless dist/ was built without the bundles (tsc alone) or
// LORE_NO_BUNDLE=1 asks for the modules (stack traces that name their files, the tests of that path).
function bundledLoader() {
  const loader = new URL('../dist/cli-load.cjs', import.meta.url);
  return existsSync(loader) ? createRequire(import.meta.url)(fileURLToPath(loader)) : undefined;
}
const loader = hook || process.env.LORE_NO_BUNDLE === '1' ? undefined : bundledLoader();
// The pre-commit hook mostly waits for git (the staged change and its blobs): start it while the CLI loads.
const early = hook
  ? import('../dist/guard/staged-change.js').then((staged) => void staged.prestartStagedChange(process.cwd()))
  : look
    ? Promise.resolve(loader ?? import('../dist/cli/_early-look.js')).then((early) => early.prestartEntryLook(args, process.cwd(), process.env)).catch(() => undefined)
    : Promise.resolve();
early
  .then(() => loader ?? import('../dist/cli/main.js'))
  .then((lore) => lore.main(args))
  .then(() => {
    // The hook has nothing left to do once its report is out: exit then, instead of after the
    // garbage collection Node runs before a natural exit (15-35 ms on the bench's 10,000 entries).
    if (hook) process.stdout.write('', () => process.stderr.write('', () => process.exit()));
  });
