#!/usr/bin/env node
// Tiny shim: the CLI runs compiled JavaScript so it starts fast (no TypeScript loader).
import('../dist/cli/main.js').then((cli) => cli.main(process.argv.slice(2)));
