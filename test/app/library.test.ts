/**
 * The package's library entry (package.json "exports"): the built package, installed as a
 * dependency of another project (node_modules/atlevel linked to this one), is imported by name from
 * plain JavaScript and its use cases answer as the CLI does on the bundled example; its declarations,
 * one bundled file, type-check a TypeScript caller under nodenext resolution. Needs the build (`npm
 * test` builds first).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../helpers/fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'atlevel-library-'));
mkdirSync(join(dir, 'node_modules'));
symlinkSync(projectRoot, join(dir, 'node_modules', 'atlevel'), 'dir');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const example = join(projectRoot, 'examples', 'bug-2019850');

const CALLER = `
import { diffConfigs, readHistory, analyzeHistory } from 'atlevel';
const outcome = await diffConfigs({ pool: 'master', from: process.argv[2] });
const result = analyzeHistory(await readHistory([process.argv[2]], {}));
console.log(JSON.stringify({ identical: outcome.identical, how: outcome.report.how, verdict: result.verdict }));
`;

/**
 * analyze and status through the package, each printing its -o json document and its conclusion:
 * what a script gets without a shell.
 */
const USE_CASES = `
import { analyze, analysisJson, status, statusJson } from 'atlevel';
const inputs = [process.argv[2]];
const analysis = await analyze({ inputs });
const state = await status({ inputs });
console.log(JSON.stringify({
  analysis: JSON.parse(await analysisJson(analysis)),
  analysisConclusion: analysis.conclusion,
  status: JSON.parse(await statusJson(state)),
  statusConclusion: state.conclusion,
}));
`;

const TYPED_CALLER = `
import {
  type AnalysisResult,
  type AnalyzeRequest,
  type Conclusion,
  type DiffRequest,
  type SimulateRequest,
  type StatusOutcome,
  analyze,
  analyzeHistory,
  diffConfigs,
  readHistory,
  simulate,
  status,
} from 'atlevel';
const request: DiffRequest = { pool: 'master', from: 'x', only: ['units'] };
const identical: boolean = (await diffConfigs(request)).identical;
const verdict: AnalysisResult['verdict'] = analyzeHistory(await readHistory(['x'], {})).verdict;
const analysis: AnalyzeRequest = { inputs: ['x'], rules: ['master-pool-updated-before-cvo-complete'] };
const concluded: Conclusion = (await analyze(analysis)).conclusion;
const state: StatusOutcome = await status({ inputs: ['x'], at: Date.parse('2021-11-03T03:30:00Z') });
const insights = state.kind === 'hosted' ? state.status.insights.length : state.status.insights.length;
const run: SimulateRequest = { scenario: 'pause-image-only', seed: 1, mode: { kind: 'seeds', runs: 10 } };
const simulated: Conclusion = (await simulate(run)).conclusion;
// @ts-expect-error: a request's pool is a string, not a number
const wrong: DiffRequest = { pool: 1 };
// @ts-expect-error: a moment is milliseconds, not the flag's text
const text: StatusOutcome = await status({ inputs: ['x'], at: '2021-11-03T03:30:00Z' });
export { identical, verdict, concluded, insights, simulated, wrong, text };
`;

describe('the library entry', () => {
  it('is imported by name and answers as the CLI does', () => {
    writeFileSync(join(dir, 'caller.mjs'), CALLER);
    const r = spawnSync(process.execPath, ['caller.mjs', example], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      identical: false,
      how: 'pool master: the two newest of 2 rendered configs',
      verdict: 'fail',
    });
  });

  it("gives analyze's and status's -o json documents and conclusions, as the CLI prints them", () => {
    writeFileSync(join(dir, 'use-cases.mjs'), USE_CASES);
    const r = spawnSync(process.execPath, ['use-cases.mjs', example], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(r.status, r.stderr).toBe(0);
    const got = JSON.parse(r.stdout);
    const cli = (command: string) =>
      spawnSync(process.execPath, [join(projectRoot, 'bin', 'atlevel.js'), command, example, '-o', 'json'], {
        encoding: 'utf8',
        timeout: 120_000,
      });
    const analyzed = cli('analyze');
    expect(analyzed.status).toBe(1);
    expect(got.analysis).toEqual(JSON.parse(analyzed.stdout));
    expect(got.analysis.verdict).toBe('fail');
    expect(got.analysisConclusion).toBe('failure');
    const shown = cli('status');
    expect(shown.status).toBe(0);
    expect(got.status).toEqual(JSON.parse(shown.stdout));
    expect(got.statusConclusion).toBe('ok');
  });

  // test/cli/package.test.ts checks that this file is the one declaration file the package ships.
  it('declares its types in one file that imports only what a caller has', () => {
    const pkg = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8'));
    expect(pkg.types).toBe('./dist/bundle/lib.d.ts');
    expect(pkg.exports['.'].types).toBe(pkg.types);
    // Its imports are node's modules and the package's dependencies, which a caller resolves: a
    // relative import would name one of the files that do not ship.
    const dts = readFileSync(join(projectRoot, 'dist', 'bundle', 'lib.d.ts'), 'utf8');
    const deps = Object.keys(pkg.dependencies);
    const imported = [...dts.matchAll(/(?:from |import\()['"]([^'"]+)['"]/g)].map((m) => m[1] ?? '');
    for (const spec of imported) {
      expect(spec.startsWith('node:') || deps.some((d) => spec === d || spec.startsWith(`${d}/`)), spec).toBe(
        true,
      );
    }
  });

  it('has declarations a TypeScript caller type-checks against', () => {
    writeFileSync(join(dir, 'caller.mts'), TYPED_CALLER);
    const tsc = join(projectRoot, 'node_modules', '.bin', 'tsc');
    const r = spawnSync(
      tsc,
      [
        '--noEmit',
        '--strict',
        '--skipLibCheck',
        '--module',
        'nodenext',
        '--moduleResolution',
        'nodenext',
        '--target',
        'es2022',
        '--types',
        'node',
        '--typeRoots',
        join(projectRoot, 'node_modules', '@types'),
        'caller.mts',
      ],
      { cwd: dir, encoding: 'utf8', timeout: 170_000 },
    );
    expect(r.status, `${r.stdout}${r.stderr}`).toBe(0);
  }, 180_000);
});
