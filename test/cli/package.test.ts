/**
 * What `npm pack` puts in the package: the launcher, the compiled and bundled CLI with the HTML page
 * script beside both, the docs, the examples the help texts name and the signatures, and nothing
 * of the source tree, the tests, the benches or the build's own bookkeeping. Needs the build
 * (`npm test` builds first); the pack's scripts are not run.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../helpers/fixtures.js';

function packedFiles(): string[] {
  const r = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: projectRoot,
    encoding: 'utf8',
    timeout: 120_000,
  });
  expect(r.status, r.stderr).toBe(0);
  const [pack] = JSON.parse(r.stdout) as [{ files: { path: string }[] }];
  return pack.files.map((f) => f.path).sort();
}

describe('the packed file list', () => {
  const files = packedFiles();
  const has = (path: string) => files.includes(path);

  it('holds what an installed atlevel runs and what its help names', () => {
    for (const path of [
      'package.json',
      'README.md',
      'bin/atlevel.js',
      'dist/bundle/main.js',
      'dist/bundle/page.bundle.js',
      'dist/cli/main.js',
      'dist/report/html/page.bundle.js',
      'docs/simulate.md',
      'examples/bug-2019850/build-log.txt',
      'examples/bug-2019850/release/release-to.json',
      'examples/scenarios/two-node-pause-image.yaml',
      'signatures/bug-1999556.json',
    ])
      expect(has(path), path).toBe(true);
  });

  it('leaves out the source tree, tests, benches and build bookkeeping', () => {
    const stray = files.filter(
      (f) =>
        /^(src|test|bench|scripts|node_modules|deploy)\//.test(f) ||
        /\.test\.(js|d\.ts)(\.map)?$/.test(f) ||
        /(^|\/)\.(tsbuildinfo|build-stamp)$/.test(f),
    );
    expect(stray).toEqual([]);
  });
});
