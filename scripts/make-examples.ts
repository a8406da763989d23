/**
 * Writes the bundled examples: examples/bug-2019850 (a reconstruction of the CI run of Bugzilla
 * 2019850) and examples/bug-2019850-fixed (the same update with the fixed machine-config operator).
 * Deterministic: fixed timestamps, seeded choices, no wall clock; re-running gives identical bytes.
 * The modules under scripts/make-examples/ hold the facts, the timeline and the renderers.
 *
 *   npx tsx scripts/make-examples.ts
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exampleFiles, FOLDERS } from './make-examples/files.js';

const EXAMPLES = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'examples');

for (const variant of ['bug', 'fixed'] as const) {
  const out = exampleFiles(variant);
  const root = join(EXAMPLES, FOLDERS[variant]);
  rmSync(root, { recursive: true, force: true });
  let total = 0;
  for (const [path, text] of Object.entries(out)) {
    const target = join(root, path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, text);
    total += Buffer.byteLength(text);
  }
  console.log(`${relative(process.cwd(), root)}: ${Object.keys(out).length} files, ${total} bytes`);
}
