// Build: tsc for the CLI and library; esbuild for the browser bundle of the HTML report, when present.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
if (existsSync('scripts/build-report-bundle.mjs')) {
  await import('./build-report-bundle.mjs');
}
