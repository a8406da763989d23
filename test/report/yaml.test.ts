/**
 * `-o yaml` prints the document `-o json` prints (issue 39): for every command that offers both, the two
 * outputs parse to one value; and the YAML printer keeps that promise for any JSON document, with
 * nothing raw a terminal would act on.
 */
import { join } from 'node:path';
import fc from 'fast-check';
import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { safeYaml } from '../../src/report/yaml.js';
import { inProcessCli } from '../helpers/cli.js';
import { projectRoot } from '../helpers/fixtures.js';

const cli = inProcessCli('yaml');
const BUG = join(projectRoot, 'examples/bug-2019850');
const RELEASE = (side: string) => join(BUG, 'release', `release-${side}.json`);

/** The command's -o json and -o yaml, both parsed; and the exit codes, which must not differ either. */
async function both(...args: string[]): Promise<{ json: unknown; yaml: unknown; text: string }> {
  const j = await cli.run(...args, '-o', 'json');
  const y = await cli.run(...args, '-o', 'yaml');
  expect(y.code).toBe(j.code);
  expect(y.out).not.toBe('');
  return { json: JSON.parse(j.out), yaml: yaml.load(y.out), text: y.out };
}

describe('-o yaml is the -o json document', () => {
  it('analyze', async () => {
    const { json, yaml: y } = await both('analyze', BUG);
    expect(y).toEqual(json);
    expect((y as { verdict: string }).verdict).toBe('fail');
  });

  it('status', async () => {
    const { json, yaml: y } = await both('status', BUG);
    expect(y).toEqual(json);
    expect((y as { kind: string }).kind).toBe('AtlevelUpdateStatus');
  });

  it('diff, release diff, release info and simulate', async () => {
    for (const args of [
      ['diff', '--pool', 'master', '--from', BUG],
      ['release', 'diff', RELEASE('from'), RELEASE('to')],
      ['release', 'info', RELEASE('to')],
      ['simulate', '--scenario', 'pause-image-only', '--policy', 'pre-fix-2021', '--seed', '1'],
    ]) {
      const { json, yaml: y } = await both(...args);
      expect(y, args.join(' ')).toEqual(json);
    }
  });
});

describe('safeYaml', () => {
  // JSON values as JSON.parse gives them: what -o json's document is, read back.
  const jsonValue = fc.jsonValue().map((v) => JSON.parse(JSON.stringify(v)) as unknown);
  const hostile = fc.string({
    unit: fc.constantFrom(
      'a',
      ':',
      ' ',
      '-',
      '\n',
      '"',
      "'",
      '#',
      '\u007f',
      '\u0085',
      '\u009b',
      '\u202e',
      '\u2066',
      'é',
    ),
  });
  const withHostileKeys = fc.dictionary(hostile, fc.oneof(hostile, fc.integer(), fc.constant(null)));

  it('parses back to the document, for any JSON value', () => {
    fc.assert(
      fc.property(fc.oneof(jsonValue, withHostileKeys), (doc) => {
        expect(yaml.load(safeYaml(doc))).toEqual(doc);
      }),
      { numRuns: 300 },
    );
  });

  it('writes no DEL, C1 or bidirectional control raw, in keys or values', () => {
    fc.assert(
      fc.property(withHostileKeys, (doc) => {
        expect(safeYaml(doc)).not.toMatch(/[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
      }),
      { numRuns: 300 },
    );
  });

  it('drops and changes what JSON does: undefined, functions, NaN, -0, toJSON', () => {
    const doc = { a: undefined, b: [undefined, Number.NaN, -0], c: new Date(0), f: () => 1 };
    expect(yaml.load(safeYaml(doc))).toEqual(JSON.parse(JSON.stringify(doc)));
  });
});
