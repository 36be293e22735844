// Builds data/vector-scan.wasm, the WebAssembly SIMD kernel of src/knowledge/vector-scan.ts, from
// its source data/vector-scan.wat with wabt (the WebAssembly binary toolkit). The binary is kept
// in the repository, as data/word-vectors.bin is, so lore runs it from src/ and dist/ alike with no
// build step; tests/vector-scan.test.ts fails when it is not what this script makes of the source.
// Run it after changing the source: `node scripts/build-wasm.mjs`, then set KERNEL_SHA256 in
// src/knowledge/vector-scan.ts to the sha256 it prints (lore runs no other kernel).
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import wabt from 'wabt';

/** The binary wabt makes of a .wat source (SIMD on, no names section: the same bytes each time). */
export async function assemble(path) {
  const toolkit = await wabt();
  const module = toolkit.parseWat(path, readFileSync(path, 'utf8'), { simd: true });
  try {
    module.validate();
    return Buffer.from(module.toBinary({ write_debug_names: false }).buffer);
  } finally {
    module.destroy();
  }
}

// Compared as URLs, and read by path: a checkout under a folder with a space or a non-ASCII letter has them percent-encoded in its URL.
if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const bytes = await assemble(fileURLToPath(new URL('../data/vector-scan.wat', import.meta.url)));
  writeFileSync(new URL('../data/vector-scan.wasm', import.meta.url), bytes);
  console.log(`data/vector-scan.wasm: ${bytes.length} bytes, sha256 ${createHash('sha256').update(bytes).digest('hex')}`);
}
