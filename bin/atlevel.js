#!/usr/bin/env node
// Thin launcher. `npm run build` (or `npm install`, via prepare) compiles src/ into dist/ and bundles
// the CLI into one script, dist/bundle/atlevel.cjs, with a V8 code cache beside it (scripts/build.mjs,
// bin/load-bundle.js); each command's modules in it are run only when the command is. dist/cli/main.js
// is the unbundled fallback.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';

const argv = process.argv.slice(2);

// A command that reads its inputs once and exits spends much of its CPU time in V8's optimising
// compiler, on helper threads: on the analyze bench's large run (npm run bench -- analyze) it
// compiles about 140 functions, a fifth of the process's CPU time. Half V8's cumulative inlining
// budget (920 bytes of bytecode by default) makes each of those compilations smaller; there it saved
// about 8% of the CPU time (docs/performance.md, "Start-up and the V8 compiler"). The long-running
// commands (serve, watch) keep the default: they run their hot code long enough to repay it. The
// script is compiled under the halved budget for every command, as the build made its code cache
// (V8 takes a cache only under the flags it was made with; the workers a command starts then take it
// too), and serve and watch set V8's default back before they run (bin/load-bundle.js).
const LONG_RUNNING = new Set(['serve', 'watch']);

if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  // What `atlevel --version` prints (src/cli/version.ts), without loading anything else.
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  // A reader that closed the pipe first (`atlevel -V | true`) is no error: end quietly, as the other
  // commands do (src/cli/pipe.ts), not with Node's trace of an unhandled 'error' event.
  process.stdout.on('error', (err) => {
    if (err.code !== 'EPIPE') throw err;
  });
  process.stdout.write(`${pkg.version}\n`);
} else {
  const { BUNDLE, CACHE_FLAGS, loadUnderCacheFlags } = await import('./load-bundle.js');
  const shortRun = !LONG_RUNNING.has(argv[0] ?? '');
  let main;
  if (existsSync(BUNDLE)) {
    main = loadUnderCacheFlags(BUNDLE, { shortRun }).exports.main;
  } else {
    const unbundled = new URL('../dist/cli/main.js', import.meta.url);
    if (!existsSync(fileURLToPath(unbundled))) {
      process.stderr.write('atlevel: not built yet; run `npm run build` in the atlevel folder first\n');
      process.exit(2);
    }
    ({ main } = await import(unbundled.href));
    if (shortRun) setFlagsFromString(CACHE_FLAGS);
  }
  process.exitCode = await main(argv);
}
