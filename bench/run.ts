/**
 * `npm run bench`: runs every bench/*.bench.ts in its own process, one after another, so that their
 * memory figures do not mix. Each benchmark prints its own ratios. Not a test: nothing here fails CI.
 * `npm run bench -- diff` runs only the benchmarks whose file name contains "diff".
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const filter = process.argv[2] ?? '';
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts') && f.includes(filter))
  .sort();
let failed = 0;
for (const file of files) {
  process.stdout.write(`\n== ${file} ==\n`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(here, file)], { stdio: 'inherit' });
  if (r.status !== 0) failed += 1;
}
process.exitCode = failed === 0 ? 0 : 1;
