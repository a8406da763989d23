// Loads the bundled CLI, dist/bundle/atlevel.cjs (scripts/build.mjs), with the V8 code cache the build
// made for it: the bytecode of the functions a few typical commands ran, so that a process does not
// parse and compile them again. Node 20 keeps no such cache for modules (node 22's
// module.enableCompileCache does), so the bundle is one CommonJS script, compiled here with vm.Script's
// cachedData (docs/performance.md, "One script and a code cache").
//
// The cache is only ever a shortcut. V8 takes it only if it was made by the same V8, with the same
// flags, for a source of the same length, and compiles the source as usual otherwise; the build id
// that ends the bundle and starts the cache file keeps a cache from being used with another build of
// the same length. A missing or unreadable cache is no error: the process starts a little slower.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { Script } from 'node:vm';

/** The bundle that bin/atlevel.js and the worker entry points load. */
export const BUNDLE = fileURLToPath(new URL('../dist/bundle/atlevel.cjs', import.meta.url));

/**
 * V8's cumulative inlining budget halved (its default is 920 bytes of bytecode), under which the CLI
 * runs the commands that read their inputs once and exit (bin/atlevel.js, docs/performance.md
 * "Start-up and the V8 compiler"). V8 takes a code cache only under the flags it was made with, and
 * V8's flags are the whole process's, its worker threads' too: so the build makes the cache under
 * this budget (scripts/code-cache.mjs), the CLI sets it before it compiles the script
 * (loadUnderCacheFlags), and the workers a command starts (ingest's pool, the hash worker of sliced
 * downloads), which load the script under the flags the process runs with, take the cache as well.
 */
export const CACHE_FLAGS = '--max-inlined-bytecode-size-cumulative=200';
/** V8's default budget (node 20's, long unchanged), which a process that sets CACHE_FLAGS only to compile puts back. */
const DEFAULT_FLAGS = '--max-inlined-bytecode-size-cumulative=920';

/** The build's last line names the build; its cache file starts with the same 64 hex digits. */
const BUILD_ID = /\/\/ atlevel-build ([0-9a-f]{64})\n$/;
const ID_BYTES = 64;

/** The file beside the bundle that holds its code cache: the build id, then V8's data. */
export function cacheFile(bundle) {
  return `${bundle}.cache`;
}

function cachedDataFor(bundle, id) {
  if (id === undefined) return undefined;
  let bytes;
  try {
    bytes = readFileSync(cacheFile(bundle));
  } catch {
    return undefined;
  }
  if (bytes.length <= ID_BYTES || bytes.toString('latin1', 0, ID_BYTES) !== id) return undefined;
  return bytes.subarray(ID_BYTES);
}

/**
 * The bundle's exports ({ main, workers, library }), run as node runs a CommonJS module (the same
 * wrapper, require resolving from the bundle's folder), and the compiled script, from which the build
 * makes the cache, with the build id (neither when the script was loaded as a module). `cache: false`
 * compiles from the source alone (the build's training run). `beforeRun` is called once the script
 * is compiled, before its top level runs.
 */
export function loadBundle(bundle = BUNDLE, { cache = true, beforeRun = () => {} } = {}) {
  // node maps stack traces through source maps (--enable-source-maps) for what its module loaders
  // compile, not for a vm.Script: a process that asks for them loads the script as a plain module.
  if (cache && process.sourceMapsEnabled) {
    beforeRun();
    return { exports: createRequire(import.meta.url)(bundle) };
  }
  // The build makes the script ASCII (scripts/build.mjs asciiOnly): latin1 reads it as is, and faster.
  const source = readFileSync(bundle, 'latin1');
  const id = BUILD_ID.exec(source.slice(-100))?.[1];
  const cachedData = cache ? cachedDataFor(bundle, id) : undefined;
  // On one line with the bundle's first, as node's own wrapper, so that the source map's lines hold.
  const script = new Script(`(function (exports, require, module, __filename, __dirname) { ${source}\n})`, {
    filename: bundle,
    ...(cachedData ? { cachedData } : {}),
  });
  beforeRun();
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(bundle), module, bundle, dirname(bundle));
  return {
    exports: module.exports,
    script,
    id,
    cacheRejected: cachedData ? script.cachedDataRejected : undefined,
  };
}

/**
 * loadBundle under the flags the build made the cache with (CACHE_FLAGS), set first. V8 checks them
 * only as it compiles the script; the script's top level then runs under V8's defaults, because
 * node's own modules that it loads (node:url, node:path, ...) come with a code cache of node's, made
 * under V8's default flags: under any other flags each compiles from its source (5 ms more for the
 * script's top level, about three times as long for node:zlib or node:crypto). `shortRun`: the
 * process then runs under CACHE_FLAGS, as the CLI's commands that read their inputs once do, and so
 * do the workers it starts, which take the cache too. Otherwise (serve and watch, which run long
 * enough to repay V8's default budget, and a program that imports the library) V8's defaults stay:
 * V8 reads the budget at each optimising compilation. A process given the budget on node's command
 * line (node 20 refuses it in NODE_OPTIONS) keeps its own then, and compiles without the cache
 * unless it gave CACHE_FLAGS' value.
 */
export function loadUnderCacheFlags(bundle = BUNDLE, { shortRun }) {
  const own =
    !shortRun && process.execArgv.some((arg) => /max[-_]inlined[-_]bytecode[-_]size[-_]cumulative/.test(arg));
  if (own) return loadBundle(bundle);
  setFlagsFromString(CACHE_FLAGS);
  let reset = false;
  const beforeRun = () => {
    setFlagsFromString(DEFAULT_FLAGS);
    reset = true;
  };
  try {
    return loadBundle(bundle, { beforeRun });
  } finally {
    if (!reset) setFlagsFromString(DEFAULT_FLAGS);
    if (shortRun) setFlagsFromString(CACHE_FLAGS);
  }
}
