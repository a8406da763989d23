#!/usr/bin/env node
// Thin launcher. `npm run build` (or `npm install`, via prepare) compiles src/ into dist/ and bundles
// the CLI into dist/bundle/ (scripts/build.mjs): one module per command plus a few shared chunks, so
// a process loads a handful of files instead of hundreds. dist/cli/main.js is the unbundled fallback.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  // What `atlevel --version` prints (src/cli/version.ts), without loading anything else.
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`${pkg.version}\n`);
} else {
  const entry = [
    new URL('../dist/bundle/main.js', import.meta.url),
    new URL('../dist/cli/main.js', import.meta.url),
  ].find((url) => existsSync(fileURLToPath(url)));
  if (!entry) {
    process.stderr.write('atlevel: not built yet; run `npm run build` in the atlevel folder first\n');
    process.exit(2);
  }
  const { main } = await import(entry.href);
  process.exitCode = await main(argv);
}
