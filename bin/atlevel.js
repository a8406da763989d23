#!/usr/bin/env node
// Thin launcher: the compiled CLI lives in dist/. `npm run build` (or `npm install`, via prepare) makes it.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write('atlevel: not built yet; run `npm run build` in the atlevel folder first\n');
  process.exit(2);
}
const { main } = await import(entry.href);
process.exitCode = await main(process.argv.slice(2));
