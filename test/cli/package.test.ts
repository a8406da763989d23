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
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../helpers/fixtures.js';

function packed(): {
  files: string[];
  sizes: Map<string, number>;
  modes: Map<string, number>;
  size: number;
  unpackedSize: number;
} {
  const r = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: projectRoot,
    encoding: 'utf8',
    timeout: 120_000,
  });
  expect(r.status, r.stderr).toBe(0);
  const [pack] = JSON.parse(r.stdout) as [
    { files: { path: string; size: number; mode: number }[]; size: number; unpackedSize: number },
  ];
  return {
    files: pack.files.map((f) => f.path).sort(),
    sizes: new Map(pack.files.map((f) => [f.path, f.size])),
    modes: new Map(pack.files.map((f) => [f.path, f.mode])),
    size: pack.size,
    unpackedSize: pack.unpackedSize,
  };
}

describe('the packed file list', () => {
  const { files, sizes, modes } = packed();
  const has = (path: string) => files.includes(path);

  it('holds each command package.json names, executable: npm links them onto PATH', () => {
    const { bin } = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as {
      bin: Record<string, string>;
    };
    // kubectl finds its plugin and the plugin's completer (kubectl_complete-atlevel) by these names.
    expect(Object.keys(bin)).toEqual(
      expect.arrayContaining(['atlevel', 'kubectl-atlevel', 'kubectl_complete-atlevel', 'oc-atlevel']),
    );
    for (const file of Object.values(bin)) {
      expect(has(file), file).toBe(true);
      expect((modes.get(file) ?? 0) & 0o111, file).toBe(0o111);
    }
  });

  it('holds what an installed atlevel runs and what its help names', () => {
    for (const path of [
      'package.json',
      'README.md',
      'bin/atlevel.js',
      'bin/kubectl-atlevel',
      'bin/kubectl_complete-atlevel',
      'bin/oc-atlevel',
      'bin/load-bundle.js',
      'dist/bundle/atlevel.cjs',
      'dist/bundle/atlevel.cjs.map',
      'dist/bundle/atlevel.cjs.cache',
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

  it("holds the code once, in one script with its source map, which carries atlevel's own sources", () => {
    const code = files.filter((f) => /^dist\/bundle\/.*\.c?js$/.test(f)).sort();
    expect(code).toEqual([
      'dist/bundle/atlevel.cjs',
      'dist/bundle/hash-worker.js',
      'dist/bundle/ingest-worker.js',
      'dist/bundle/lib.js',
      'dist/bundle/page.bundle.js',
    ]);
    // The worker and library entries only load the script (scripts/build.mjs).
    for (const stub of ['hash-worker.js', 'ingest-worker.js', 'lib.js'])
      expect(sizes.get(`dist/bundle/${stub}`), stub).toBeLessThan(2048);
    const map = JSON.parse(readFileSync(join(projectRoot, 'dist/bundle/atlevel.cjs.map'), 'utf8')) as {
      sources: string[];
      sourcesContent: (string | null)[];
    };
    const own = map.sources.findIndex((s) => s.endsWith('src/cli/main.ts'));
    expect(own).toBeGreaterThanOrEqual(0);
    expect(map.sourcesContent[own]).toMatch(/export async function main/);
  });

  it('declares the library in one file, the one package.json names', () => {
    expect(files.filter((f) => f.endsWith('.ts'))).toEqual(['dist/bundle/lib.d.ts']);
  });
});
