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
// commands (serve, watch) keep the default: they run their hot code long enough to repay it. A
// compiler flag is read at each compilation, so setting it before the command runs is enough (it is set
// once the bundle is compiled, below).
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
  const { BUNDLE, loadBundle } = await import('./load-bundle.js');
  let main;
  if (existsSync(BUNDLE)) {
    // Compiled before the flag below is set: V8 takes a code cache only under the flags it was made with.
    main = loadBundle(BUNDLE).exports.main;
  } else {
    const unbundled = new URL('../dist/cli/main.js', import.meta.url);
    if (!existsSync(fileURLToPath(unbundled))) {
      process.stderr.write('atlevel: not built yet; run `npm run build` in the atlevel folder first\n');
      process.exit(2);
    }
    ({ main } = await import(unbundled.href));
  }
  if (!LONG_RUNNING.has(argv[0] ?? '')) setFlagsFromString('--max-inlined-bytecode-size-cumulative=200');
  process.exitCode = await main(argv);
}
