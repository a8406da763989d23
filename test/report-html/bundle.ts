import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { clearPageBundleCache } from '../../src/report/html/bundle.js';
import { projectRoot } from '../helpers/fixtures.js';

let built: Promise<void> | undefined;

/**
 * Build the page script from the current source (what `npm run build` does), once per test file, so
 * the browser tests never run against a stale dist/ bundle.
 */
export function buildPageBundle(): Promise<void> {
  built ??= (async () => {
    process.env.ATLEVEL_QUIET_BUILD = '1';
    const script = pathToFileURL(join(projectRoot, 'scripts/build-report-bundle.mjs')).href;
    await import(script); // importing the build script builds the bundle
    clearPageBundleCache();
  })();
  return built;
}
