/**
 * What `npm pack` puts in the package (issue 42): one runtime copy of the code, the bundle, with its
 * source maps and the HTML page script beside it; the docs' text, the examples the help texts name
 * and the signatures; the declarations of the library entry (package.json "exports", src/app) in one
 * bundled file; and nothing a user never runs: not the unbundled JavaScript, tsc's other declarations,
 * the docs' images, the contributors' pages, the source tree, the tests, the benches or the build's
 * own bookkeeping. Needs the
 * build (`npm test` builds first); the pack's scripts are not run.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../helpers/fixtures.js';

function packed(): { files: string[]; size: number; unpackedSize: number } {
  const r = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: projectRoot,
    encoding: 'utf8',
    timeout: 120_000,
  });
  expect(r.status, r.stderr).toBe(0);
  const [pack] = JSON.parse(r.stdout) as [{ files: { path: string }[]; size: number; unpackedSize: number }];
  return { files: pack.files.map((f) => f.path).sort(), size: pack.size, unpackedSize: pack.unpackedSize };
}

describe('the packed file list', () => {
  const { files } = packed();
  const has = (path: string) => files.includes(path);

  it('holds what an installed atlevel runs and what its help names', () => {
    for (const path of [
      'package.json',
      'README.md',
      'bin/atlevel.js',
      'bin/kubectl-atlevel',
      'bin/oc-atlevel',
      'dist/bundle/main.js',
      'dist/bundle/main.js.map',
      'dist/bundle/hash-worker.js',
      'dist/bundle/ingest-worker.js',
      'dist/bundle/lib.js',
      'dist/bundle/lib.d.ts',
      'dist/bundle/page.bundle.js',
      'docs/simulate.md',
      'docs/commands.md',
      'examples/bug-2019850/build-log.txt',
      'examples/bug-2019850/release/release-to.json',
      'examples/scenarios/two-node-pause-image.yaml',
      'signatures/bug-1999556.json',
    ])
      expect(has(path), path).toBe(true);
  });

  it('ships the bundle alone: no second copy of the code, no images, no sources, tests or bookkeeping', () => {
    const stray = files.filter(
      (f) =>
        /^(src|test|bench|scripts|node_modules|deploy)\//.test(f) ||
        (f.startsWith('dist/') && !f.startsWith('dist/bundle/')) ||
        /\.d\.ts\.map$/.test(f) ||
        /^docs\/(performance|recipes-inputs)\.md$/.test(f) ||
        /\.(png|jpe?g|gif|svg)$/.test(f) ||
        /(^|\/)\.(tsbuildinfo|build-stamp)$/.test(f),
    );
    expect(stray).toEqual([]);
  });

  it("gives every chunk of the bundle its source map, which carries atlevel's own sources", () => {
    const chunks = files.filter(
      (f) => /^dist\/bundle\/.*\.js$/.test(f) && f !== 'dist/bundle/page.bundle.js',
    );
    expect(chunks.length).toBeGreaterThan(10);
    for (const chunk of chunks) expect(has(`${chunk}.map`), chunk).toBe(true);
  });

  it('declares the library in one file, the one package.json names', () => {
    expect(files.filter((f) => f.endsWith('.ts'))).toEqual(['dist/bundle/lib.d.ts']);
  });
});
