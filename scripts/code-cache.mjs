// The code cache of the bundled CLI (scripts/build.mjs runs this on the script it just built, in a
// process of its own): the script is compiled from its source, a few commands run on the bundled
// example as a user would run them, and what V8 compiled for them (the script's top level and every
// function they called) is written beside the script, after the build id (bin/load-bundle.js).
// A function the cache lacks is compiled when first called, as without a cache; a larger cache costs
// every command its reading, so the commands are the common ones, each run once. Their output goes
// wherever the build sends this process's (nowhere).
// The script is compiled and the commands run under the V8 flags the CLI compiles it under
// (CACHE_FLAGS, set first as bin/atlevel.js sets them): V8 takes a cache only under the flags it was
// made with.
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { CACHE_FLAGS, cacheFile, loadBundle } from '../bin/load-bundle.js';

const script = process.argv[2];
if (!script) throw new Error('usage: node scripts/code-cache.mjs <dist/bundle/atlevel.cjs>');

const example = fileURLToPath(new URL('../examples/bug-2019850', import.meta.url));
const configs = join(example, 'artifacts/e2e-aws-upgrade/gather-extra/artifacts/machineconfigs.json');

const TRAINING = [
  ['--help'],
  ['analyze', example, '-o', 'json'],
  ['analyze', example],
  ['status', example],
  ['diff', '--pool', 'master', '--from', configs, '-o', 'json'],
  ['diff', '--pool', 'master', '--from', configs],
];

setFlagsFromString(CACHE_FLAGS);
const { exports, script: compiled, id } = loadBundle(script, { cache: false });
if (id === undefined) throw new Error(`${script}: no build id on its last line`);
for (const argv of TRAINING) await exports.main(argv);
process.exitCode = 0;

// Written beside and renamed, so that no process reads half a cache.
const file = cacheFile(script);
const scratch = `${file}.${process.pid}.tmp`;
writeFileSync(scratch, Buffer.concat([Buffer.from(id, 'latin1'), compiled.createCachedData()]));
renameSync(scratch, file);
