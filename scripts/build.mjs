// Build: the project's own tsc for the CLI and library (never npx, which outside the project could
// fetch an unrelated package of that name), then esbuild for the HTML report's page bundle and for
// the bundled CLI (dist/bundle/), and rollup with rollup-plugin-dts for the library's declarations in
// one file (dist/bundle/lib.d.ts).
// An unchanged tree is not rebuilt: `npm start` and `npm test` call this before every run.
import { execFileSync } from 'node:child_process';
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
 * The CLI as bin/atlevel.js loads it: dist/cli/main.js bundled with its dependencies into
 * dist/bundle/, split at the lazy per-command imports (src/cli/commands.ts), so that `atlevel --help`
 * reads a few files instead of hundreds and each command loads only its own code. The packages that
 * load files of their own at run time (pglite's WebAssembly, pg's optional native binding) or are
 * large and rarely used stay in node_modules. The bundle sits two folders below the package root, as
 * dist/cli/ does, so the paths the code finds from its own URL (package.json, signatures/) still
 * resolve; the HTML page script is copied beside it for the same reason (src/report/html/bundle.ts),
 * the hash worker of sliced downloads and ingest's run worker are bundled as entry points of their
 * own (hash-worker.js, ingest-worker.js).
 */
async function bundleCli() {
  const { build } = await import('esbuild');
  // Built beside and swapped in, so that a CLI started meanwhile finds a whole bundle (or, for the
  // moment of the swap, none, and falls back to dist/cli/main.js).
  const final = join(root, 'dist/bundle');
  const outdir = `${final}.${process.pid}.tmp`;
  const old = `${final}.${process.pid}.old`;
  rmSync(outdir, { recursive: true, force: true });
  await build({
    // Named, so each lands at the top of the bundle whatever its folder in dist/. The hash worker is a
    // module a Worker loads by URL (src/sources/url/hasher.ts), which esbuild does not follow: it is
    // an entry point of its own, beside the chunks that look for it.
    entryPoints: {
      main: join(root, 'dist/cli/main.js'),
      'hash-worker': join(root, 'dist/sources/url/hash-worker.js'),
      // The package's library entry (package.json "exports"): the use cases of src/app.
      lib: join(root, 'dist/app/index.js'),
      // ingest's pool workers load it by URL (src/app/ingest.ts), as the hash worker.
      'ingest-worker': join(root, 'dist/app/ingest-worker.js'),
    },
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: ['@electric-sql/pglite', 'pg', '@kubernetes/client-node'],
    // CommonJS dependencies (commander) call require() on node's own modules (see withoutIdleBanner).
    banner: { js: REQUIRE_BANNER },
    legalComments: 'none',
    // The package ships the bundle alone (package.json "files"), so its maps are the way back to the
    // sources: esbuild follows tsc's maps (dist/**/*.js.map) to src/*.ts, and each map carries the
    // sources it names, for a debugger or `node --enable-source-maps` on an installed atlevel.
    sourcemap: 'linked',
    sourcesContent: true,
    logLevel: 'warning',
  });
  trimMaps(outdir);
  withoutIdleBanner(outdir);
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

const REQUIRE_BANNER =
  "import { createRequire as __atlevelRequire } from 'node:module'; const require = __atlevelRequire(import.meta.url);";

/**
 * esbuild puts the banner on every file, and so each of the chunks a command loads made a require
 * function of its own at start-up; only the chunks that name `require` (esbuild's CommonJS helpers,
 * which commander's require() calls go through) keep it. The banner is the first line of a file and
 * holds no mapping (its map's mappings start with an empty line), so dropping it moves every mapping
 * one line up.
 */
function withoutIdleBanner(dir) {
  for (const name of readdirSync(dir)) {
    if (!name.endsWith('.js')) continue;
    const path = join(dir, name);
    const text = readFileSync(path, 'utf8');
    if (!text.startsWith(`${REQUIRE_BANNER}\n`)) continue;
    const rest = text.slice(REQUIRE_BANNER.length + 1);
    if (/\brequire\b/.test(rest)) continue;
    const mapPath = `${path}.map`;
    if (existsSync(mapPath)) {
      const map = JSON.parse(readFileSync(mapPath, 'utf8'));
      // A file of re-exports alone maps nothing at all.
      if (map.mappings !== '' && !map.mappings.startsWith(';')) continue;
      map.mappings = map.mappings.slice(1);
      writeFileSync(mapPath, JSON.stringify(map));
    }
    writeFileSync(path, rest);
  }
}

/**
 * The bundle's maps keep the text of atlevel's own sources and only the positions in its
 * dependencies (commander, zod, js-yaml, ...): their text is a third of the maps, it is in the
 * dependencies' own packages, and nobody debugs them through atlevel's package.
 */
function trimMaps(dir) {
  for (const name of readdirSync(dir)) {
    if (!name.endsWith('.js.map')) continue;
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
