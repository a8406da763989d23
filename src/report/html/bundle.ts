import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Where `npm run build` (scripts/build-report-bundle.mjs) writes the page script, beside this module in dist/. */
const PAGE_BUNDLE_NAME = 'page.bundle.js';

let cached: string | undefined;

/**
 * The page script, built by esbuild into one minified IIFE. Read once per process. Beside the compiled
 * module when atlevel runs from dist/ (an installed package); under dist/ from the project root when
 * it runs from source (tests, tsx).
 */
export function pageBundle(): string {
  if (cached !== undefined) return cached;
  const candidates = [
    new URL(`./${PAGE_BUNDLE_NAME}`, import.meta.url),
    new URL(`../../../dist/report/html/${PAGE_BUNDLE_NAME}`, import.meta.url),
  ];
  for (const url of candidates) {
    try {
      cached = readFileSync(url, 'utf8');
      return cached;
    } catch {
      // try the next place
    }
  }
  const tried = candidates.map((u) => fileURLToPath(u)).join(', ');
  throw new Error(`the HTML report's page script is missing (looked for ${tried}); run \`npm run build\``);
}

/** Forget the cached script (tests rebuild it). */
export function clearPageBundleCache(): void {
  cached = undefined;
}
