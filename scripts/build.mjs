// Build: the project's own tsc for the CLI and library (never npx, which outside the project could
// fetch an unrelated package of that name), then esbuild for the HTML report's page bundle.
// An unchanged tree is not rebuilt: `npm start` and `npm test` call this before every run.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
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

const force = process.argv.includes('--force');
const upToDate =
  !force &&
  existsSync(stamp) &&
  existsSync(join(root, 'dist/cli/main.js')) &&
  statSync(stamp).mtimeMs >= Math.max(...INPUTS.map((p) => newest(join(root, p))));

if (upToDate) {
  if (process.env.ATLEVEL_QUIET_BUILD !== '1') process.stdout.write('build: dist/ is up to date\n');
} else {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], {
    stdio: 'inherit',
    cwd: root,
  });
  if (existsSync(join(root, 'scripts/build-report-bundle.mjs'))) {
    await import('./build-report-bundle.mjs');
  }
  writeFileSync(stamp, `${new Date().toISOString()}\n`);
}
