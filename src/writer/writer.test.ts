/**
 * The artifact writer (src/writer/): a run's gather-extra files are named by the kinds' descriptors,
 * the build log keeps origin's layout, and a run folder is written whole or not at all, never over
 * anything.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError, KINDS, KNOWN_KINDS } from '../model/index.js';
import { buildLogText, ciRunFiles, writeRunFolder } from './index.js';

const tmp = mkdtempSync(join(tmpdir(), 'atlevel-writer-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const START = Date.parse('2021-11-03T02:50:00Z');

describe('ciRunFiles', () => {
  it("names every kind's List as its descriptor says, under the CI test's gather-extra folder", () => {
    const files = ciRunFiles({
      target: 'e2e-aws-upgrade',
      start: START,
      lists: KNOWN_KINDS.map((k) => [k, []] as const),
      monitor: { events: [], intervals: [] },
      buildLog: 'log\n',
    });
    const gather = 'artifacts/e2e-aws-upgrade/gather-extra/artifacts';
    for (const kind of KNOWN_KINDS) {
      const facts = KINDS[kind] as { gatherExtra?: string; api: { plural: string } };
      const name = facts.gatherExtra ?? `${facts.api.plural}.json`;
      expect(JSON.parse(files.get(`${gather}/${name}`) ?? 'null'), kind).toMatchObject({
        kind: 'List',
        items: [],
      });
    }
    const junit = 'artifacts/e2e-aws-upgrade/openshift-e2e-test/artifacts/junit';
    expect(files.has(`${junit}/e2e-events_20211103-025000.json`)).toBe(true);
    expect(files.has(`${junit}/e2e-intervals_20211103-025000.json`)).toBe(true);
    expect(files.get('build-log.txt')).toBe('log\n');
    // No releases given, none written.
    expect([...files.keys()].some((p) => p.startsWith('release/'))).toBe(false);
  });
});

describe('buildLogText', () => {
  const record = {
    from: Date.parse('2021-11-03T03:23:19.114Z'),
    to: Date.parse('2021-11-03T03:23:19.114Z'),
    level: 'Info' as const,
    locator: 'clusteroperator/machine-config',
    message: 'versions: operator A -> B',
  };

  it('without a test: the header, then the timeline (watch --record)', () => {
    expect(buildLogText({ header: ['atlevel watch'], monitor: [record] })).toBe(
      'atlevel watch\n\nTimeline:\n\nNov 03 03:23:19.114 I clusteroperator/machine-config versions: operator A -> B\n',
    );
  });

  it("with a failed test: openshift-tests' started, log lines, failure block and result before the timeline", () => {
    const text = buildLogText({
      header: ['INFO[2021-11-03T02:50:00Z] Running step e2e-openshift-e2e-test.'],
      test: {
        name: 'upgrade',
        lines: [{ at: Date.parse('2021-11-03T03:23:33.079Z'), text: 'Invariant violation detected' }],
        minutes: 41,
        failure: { location: 'upgrade.go:160', context: 'during upgrade to X', error: 'the pool' },
      },
      monitor: [record],
      footer: ['INFO[2021-11-03T03:31:00Z] Step failed.'],
    });
    const lines = text.split('\n');
    expect(lines.slice(1, 4)).toEqual([
      'started: (0/1/1) "upgrade"',
      '',
      'Nov  3 03:23:33.079: INFO: Invariant violation detected',
    ]);
    expect(lines).toContain('fail [upgrade.go:160]: during upgrade to X');
    expect(lines).toContain('        s: "the pool",');
    expect(lines.indexOf('failed: (41m) "upgrade"')).toBeLessThan(lines.indexOf('Timeline:'));
    expect(text.endsWith('\n\nINFO[2021-11-03T03:31:00Z] Step failed.\n')).toBe(true);
  });
});

describe('writeRunFolder', () => {
  const files = new Map([
    ['build-log.txt', 'log\n'],
    ['artifacts/x/gather-extra/artifacts/nodes.json', '{}\n'],
  ]);

  it('writes a new folder, and into an empty one', async () => {
    await writeRunFolder(join(tmp, 'new'), files);
    expect(readFileSync(join(tmp, 'new/artifacts/x/gather-extra/artifacts/nodes.json'), 'utf8')).toBe('{}\n');
    mkdirSync(join(tmp, 'empty'));
    await writeRunFolder(join(tmp, 'empty'), files);
    expect(readdirSync(join(tmp, 'empty')).sort()).toEqual(['artifacts', 'build-log.txt']);
  });

  it('refuses a folder that holds anything, or a file, naming it and the flag; nothing is left behind', async () => {
    mkdirSync(join(tmp, 'full'));
    writeFileSync(join(tmp, 'full/keep'), 'mine');
    const err = await writeRunFolder(join(tmp, 'full'), files, {
      what: 'the record',
      flag: '--record',
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).problem).toBe('the record folder is not empty');
    expect(readdirSync(join(tmp, 'full'))).toEqual(['keep']);
    writeFileSync(join(tmp, 'file'), 'x');
    await expect(writeRunFolder(join(tmp, 'file'), files)).rejects.toThrow(/is not a folder/);
    const missing = await writeRunFolder(join(tmp, 'no/such/parent'), files).catch((e: unknown) => e);
    expect((missing as InputError).problem).toBe(
      'cannot write the simulated run: the folder it goes in does not exist',
    );
    expect(readdirSync(tmp).filter((n) => n.startsWith('.'))).toEqual([]);
  });
});
