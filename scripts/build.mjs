// Build: the project's own tsc for the CLI and library (never npx, which outside the project could
// fetch an unrelated package of that name), then esbuild for the HTML report's page bundle and for
// the bundled CLI (dist/bundle/), and rollup with rollup-plugin-dts for the library's declarations in
// one file (dist/bundle/lib.d.ts).
// An unchanged tree is not rebuilt: `npm start` and `npm test` call this before every run.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const stamp = join(root, 'dist/.build-stamp');
const INPUTS = [
  'src',
  'package.json',
  'tsconfig.json',
  'tsconfig.build.json',
  'scripts/build.mjs',
  'scripts/build-report-bundle.mjs',
  'scripts/code-cache.mjs',
  'bin/load-bundle.js',
];

/** The newest modification time among the build's inputs (folders too: a deleted file changes its folder). */
function newest(path) {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = st.mtimeMs;
  for (const name of readdirSync(path)) max = Math.max(max, newest(join(path, name)));
  return max;
}

/**
 * The CLI as bin/atlevel.js loads it: dist/cli/main.js bundled with its dependencies into one CommonJS
 * script, dist/bundle/atlevel.cjs, and the V8 code cache of what a few typical commands compile
 * (scripts/code-cache.mjs). Node 20 caches no compiled code for ES modules; a script compiled with
 * vm.Script's cachedData skips parsing and compiling what the cache holds (bin/load-bundle.js,
 * docs/performance.md "One script and a code cache"). Each command's modules, which the command table
 * imports lazily (src/cli/commands.ts), stay lazy in the script: esbuild runs a module reached only
 * by `import()` when that import runs, so a command runs only its own modules' top-level code.
 *
 * The worker entry points (the hash worker of sliced downloads, ingest's run worker) and the library's
 * entry (package.json "exports") are small ES modules beside it that load the same script: the
 * package ships one copy of the code. The packages that load files of their own at run time
 * (pglite's WebAssembly, pg's optional native binding) or are large and rarely used stay in
 * node_modules; every `import()` becomes a `require()`, which loads the ES-module-only
 * @kubernetes/client-node too (node 20.19 and later, package.json "engines"). The bundle sits two
 * folders below the package root, as dist/cli/ does, so the paths the code finds from its own URL
 * (package.json, signatures/, examples/) still resolve; the HTML page script is copied beside it for
 * the same reason (src/report/html/bundle.ts).
 */
async function bundleCli() {
  const { build } = await import('esbuild');
  // Built beside and swapped in, so that a CLI started meanwhile finds a whole bundle (or, for the
  // moment of the swap, none, and falls back to dist/cli/main.js).
  const final = join(root, 'dist/bundle');
  const outdir = `${final}.${process.pid}.tmp`;
  const old = `${final}.${process.pid}.old`;
  rmSync(outdir, { recursive: true, force: true });
  const entry = join(root, 'dist/bundle-entry.js');
  writeFileSync(entry, BUNDLE_ENTRY);
  const script = join(outdir, 'atlevel.cjs');
  const { metafile } = await build({
    entryPoints: [entry],
    outfile: script,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    supported: { 'dynamic-import': false },
    external: ['@electric-sql/pglite', 'pg', '@kubernetes/client-node'],
    // The modules find their files from their own URL; in the script that is the script's.
    define: { 'import.meta.url': '__atlevelScriptUrl' },
    banner: { js: 'var __atlevelScriptUrl = require("node:url").pathToFileURL(__filename).href;' },
    metafile: true,
    legalComments: 'none',
    // The package ships the bundle alone (package.json "files"), so its map is the way back to the
    // sources: esbuild follows tsc's maps (dist/**/*.js.map) to src/*.ts, and the map carries the
    // sources it names, for a debugger or `node --enable-source-maps` on an installed atlevel (which
    // loads the script without its cache, bin/load-bundle.js).
    sourcemap: 'linked',
    sourcesContent: true,
    logLevel: 'warning',
  });
  // What each module imports, and how (test/cli/startup.test.ts reads which modules a command's
  // start runs); beside dist/bundle, not in the package.
  writeFileSync(join(root, 'dist/bundle-meta.json'), JSON.stringify(metafile));
  trimMaps(outdir);
  // The build id (bin/load-bundle.js): the last line of the script and the start of its cache file.
  const text = asciiOnly(readFileSync(script, 'utf8'));
  const id = createHash('sha256').update(text).digest('hex');
  writeFileSync(script, `${text}// atlevel-build ${id}\n`);
  for (const [name, text] of Object.entries(await stubs(script))) writeFileSync(join(outdir, name), text);
  try {
    await bundleDeclarations(join(outdir, 'lib.d.ts'));
  } catch (err) {
    // The bundle in place stays; the half-built one goes.
    rmSync(outdir, { recursive: true, force: true });
    throw err;
  }
  const page = join(root, 'dist/report/html/page.bundle.js');
  if (existsSync(page)) copyFileSync(page, join(outdir, 'page.bundle.js'));
  if (existsSync(final)) renameSync(final, old);
  renameSync(outdir, final);
  rmSync(old, { recursive: true, force: true });
  // Made from the script where it runs: V8 keeps the file name of the script the cache was made from,
  // and stack traces and the source map would name the scratch folder.
  codeCache(join(final, 'atlevel.cjs'));
}

/**
 * The script in ASCII, which node reads into a string of one byte per character: a single other
 * character made the whole 2.4 MB string two bytes per character, twice as long to read and to hash
 * (bin/load-bundle.js reads it as latin1). esbuild escapes strings, but leaves comments and regular
 * expressions as written (`…`, `µs`, `→`); there a \u escape means the same. Each replaced character
 * moves the rest of its line 5 columns on in the source map: these are comments and the ends of a
 * few regular expressions' lines.
 */
function asciiOnly(text) {
  return text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The bundled script's entry: the command line, and what the other entry points load from it. */
const BUNDLE_ENTRY = `// Written by scripts/build.mjs: the entry of dist/bundle/atlevel.cjs.
export { main } from './cli/main.js';
/** The worker entry points beside the script (dist/bundle/*-worker.js) run these. */
export const workers = {
  hash: () => import('./sources/url/hash-worker.js'),
  ingest: () => import('./app/ingest-worker.js'),
};
/** The library's entry (dist/bundle/lib.js): the use cases of src/app. */
export const library = () => import('./app/index.js');
`;

/**
 * The ES modules beside the script, each loading it (bin/load-bundle.js): the workers, which
 * src/sources/url/hasher.ts and src/app/ingest.ts start by URL from beside the script (tinypool
 * calls the ingest worker's default export), and the library entry, whose names are the library's
 * own, read from the script just built. A worker loads the script under the flags of the process
 * that started it (the CLI's, under which the cache was made), and says whether V8 took the cache
 * (test/cli/startup.test.ts, the ingest bench); the library's program runs under its own flags, so
 * lib.js compiles the script under the cache's and sets V8's default back.
 */
async function stubs(script) {
  const { loadBundle } = await import('../bin/load-bundle.js');
  const names = Object.keys(await loadBundle(script, { cache: false }).exports.library()).filter(
    (name) => name !== 'default',
  );
  const head = (
    loader,
  ) => `// Written by scripts/build.mjs: loads the bundled CLI (atlevel.cjs beside it) with its code cache.
import { ${loader} } from '../../bin/load-bundle.js';
`;
  const worker = `${head('loadBundle')}const bundle = loadBundle();
/** Whether V8 refused the script's code cache (undefined: there was none to give it). */
export const cacheRejected = bundle.cacheRejected;
`;
  return {
    'hash-worker.js': `${worker}await bundle.exports.workers.hash();\n`,
    'ingest-worker.js': `${worker}const { default: analyseRun } = await bundle.exports.workers.ingest();\nexport default analyseRun;\n`,
    'lib.js': `${head('loadUnderCacheFlags')}const library = await loadUnderCacheFlags(undefined, { shortRun: false }).exports.library();\nexport const { ${names.join(', ')} } = library;\n`,
  };
}

/**
 * The code cache: scripts/code-cache.mjs runs a few commands on the bundled example with the script
 * compiled from its source, in a process of its own under the V8 flags the CLI compiles the script
 * under (V8 takes a cache only under the flags it was made with), then writes what V8 compiled. Its
 * output is not the build's.
 */
function codeCache(script) {
  const r = spawnSync(process.execPath, [join(root, 'scripts/code-cache.mjs'), script], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'ignore', 'pipe'],
    maxBuffer: 1 << 26,
  });
  if (r.status !== 0)
    throw new Error(
      `build: the code cache's training run failed (exit ${r.status ?? r.signal}):\n${r.stderr}`,
    );
}

/**
 * The library's declarations (package.json "types") in one file: tsc's dist/app/index.d.ts and the
 * declarations it reaches, the other few hundred of tsc's .d.ts files left out, which the package does
 * not ship. rollup-plugin-dts (not dts-bundle-generator, which dropped the zod import its output
 * needs, and took ten times as long) keeps only what the entry's exports refer to, renames clashes,
 * and leaves the types of node and of atlevel's dependencies as imports, which a caller resolves as
 * it resolves the code's own imports. Any other import (a devDependency's types, say), or any
 * warning, fails the build rather than ship declarations that name what a caller cannot find.
 */
async function bundleDeclarations(file) {
  const { rollup } = await import('rollup');
  const { dts } = await import('rollup-plugin-dts');
  const deps = Object.keys(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).dependencies ?? {});
  const external = (id) =>
    id.startsWith('node:') || deps.some((dep) => id === dep || id.startsWith(`${dep}/`));
  const bundle = await rollup({
    input: join(root, 'dist/app/index.d.ts'),
    external,
    plugins: [dts()],
    onwarn(warning) {
      throw new Error(`build: declarations of the library: ${warning.message}`);
    },
  });
  const { output } = await bundle.write({ file, format: 'es' });
  await bundle.close();
  // rollup-plugin-dts leaves whatever it finds in node_modules external, a devDependency's types too.
  const stray = output
    .flatMap((chunk) => (chunk.type === 'chunk' ? chunk.imports : []))
    .filter((id) => !external(id));
  if (stray.length > 0)
    throw new Error(
      `build: the library's declarations import ${stray.join(', ')}: neither node's nor a dependency of the package, so a caller would not have it`,
    );
}

/**
 * The bundle's maps keep the text of atlevel's own sources and only the positions in its
 * dependencies (commander, zod, js-yaml, ...): their text is a third of the maps, it is in the
 * dependencies' own packages, and nobody debugs them through atlevel's package.
 */
function trimMaps(dir) {
  for (const name of readdirSync(dir)) {
    if (!name.endsWith('.map')) continue;
    const path = join(dir, name);
    const map = JSON.parse(readFileSync(path, 'utf8'));
    map.sourcesContent = map.sources.map((source, i) =>
      source.includes('node_modules/') ? null : (map.sourcesContent?.[i] ?? null),
    );
    writeFileSync(path, JSON.stringify(map));
  }
}

/**
 * The project's own tsc. `npm install -g .` in a fresh clone links the folder and runs `prepare`
 * without installing anything in it; the build's tools (and, for the linked command, its
 * dependencies) are then installed first, exactly as package-lock.json says, with the npm that runs
 * this script. Its global-install settings are not passed on: this install is the project's own.
 */
function toolchain() {
  const require = createRequire(import.meta.url);
  try {
    return require.resolve('typescript/bin/tsc');
  } catch {
    process.stderr.write('build: the build tools are not installed in this folder; running npm ci first\n');
  }
  const env = { ...process.env };
  for (const key of Object.keys(env)) {
    if (/^npm_config_(global|prefix|location|omit|include|production|only)$/i.test(key)) delete env[key];
  }
  const args = ['ci', '--ignore-scripts', '--include=dev', '--no-audit', '--no-fund'];
  const npm = process.env.npm_execpath;
  if (npm) execFileSync(process.execPath, [npm, ...args], { cwd: root, env, stdio: 'inherit' });
  else execFileSync('npm', args, { cwd: root, env, stdio: 'inherit' });
  return createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc');
}

const force = process.argv.includes('--force');
const upToDate =
  !force &&
  existsSync(stamp) &&
  existsSync(join(root, 'dist/cli/main.js')) &&
  statSync(stamp).mtimeMs >= Math.max(...INPUTS.map((p) => newest(join(root, p))));

if (upToDate) {
  if (process.env.ATLEVEL_QUIET_BUILD !== '1') process.stdout.write('build: dist/ is up to date\n');
} else {
  const tsc = toolchain();
  execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], {
    stdio: 'inherit',
    cwd: root,
  });
  if (existsSync(join(root, 'scripts/build-report-bundle.mjs'))) {
    await import('./build-report-bundle.mjs');
  }
  await bundleCli();
  writeFileSync(stamp, `${new Date().toISOString()}\n`);
}
