/**
 * loadHistoryParts drops the interval-file echoes of build-log lines while reading when it can, and
 * after reading otherwise; the parts, and the history built from them, must be the same either way.
 * Variants of the bundled bug-2019850 run are made in a temporary folder.
 */
import { cp, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeLargeRun } from '../../bench/large-run.js';
import { loadHistoryParts } from '../../src/sources/index.js';
import { buildHistory } from '../../src/timeline/build.js';

const NOW = Date.parse('2026-01-01T00:00:00Z');
const loadHistory = async (paths: string[]) => buildHistory(await loadHistoryParts(paths, { now: NOW }));

// One intervals file echoing the build log's monitor lines, as origin 4.10 wrote them (test/fixtures/reconstruction).
const EXAMPLE = 'test/fixtures/reconstruction/bug-2019850';
const JUNIT = 'artifacts/e2e-aws-upgrade/openshift-e2e-test/artifacts/junit';
const INTERVALS = `${JUNIT}/e2e-intervals_20211103-025021.json`;

/** The example's intervals are of the 4.10 kind: locator and message are strings. */
interface Item {
  from: string;
  to: string | null;
  message: string;
}

let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'atlevel-echoes-'));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

/** A copy of the example run, changed by `edit`. */
async function variant(name: string, edit: (dir: string) => Promise<void>): Promise<string> {
  const dir = join(tmp, name);
  await cp(EXAMPLE, dir, { recursive: true });
  await edit(dir);
  return dir;
}

async function editItems(dir: string, edit: (items: Item[]) => Item[]): Promise<void> {
  const file = join(dir, INTERVALS);
  const doc = JSON.parse(await readFile(file, 'utf8')) as { items: Item[] };
  await writeFile(file, JSON.stringify({ items: edit(doc.items) }, null, 2));
}

/** The parts both ways (`all`: echoes dropped after reading; `dropped`: while reading), and the history. */
async function bothWays(dir: string) {
  const all = await loadHistoryParts([dir], { now: NOW }, { streamEchoes: false });
  const dropped = await loadHistoryParts([dir], { now: NOW });
  const history = await loadHistory([dir]);
  expect(JSON.stringify(history)).toBe(JSON.stringify(buildHistory(all)));
  expect(JSON.stringify(dropped)).toBe(JSON.stringify(all));
  return { all, dropped, history };
}

describe('dropping echoes while reading', () => {
  it('gives the same history for the example run, holding one copy of each monitor event', async () => {
    const { all, dropped } = await bothWays(EXAMPLE);
    const fromJson = (p: typeof all) => p.monitorIntervals.filter((i) => i.source !== 'build-log').length;
    expect(fromJson(all)).toBe(0);
    expect(fromJson(dropped)).toBe(0);
    expect(dropped.echoSpan).toEqual({
      from: Date.parse('2021-11-03T02:53:05Z'),
      to: Date.parse('2021-11-03T03:36:32Z'),
    });
    // The inputs list still counts what each file held.
    expect(dropped.inputs).toEqual(all.inputs);
  });

  it('gives the same history for a synthetic run of the current interval schema', async () => {
    const dir = join(tmp, 'synthetic');
    await writeLargeRun(dir, { intervals: 3000, renderedPerPool: 3, nodes: 12, events: 300 });
    const { all, dropped } = await bothWays(dir);
    expect(all.monitorIntervals).toHaveLength(3002);
    expect(dropped.monitorIntervals).toHaveLength(3002);
    expect(dropped.monitorIntervals.every((i) => i.source === 'build-log')).toBe(true);
  });

  it('still counts echoes repeated in a second intervals file', async () => {
    const dir = await variant('twice', (d) =>
      cp(join(d, INTERVALS), join(d, `${JUNIT}/e2e-events_20211103-025021.json`)),
    );
    const { dropped } = await bothWays(dir);
    expect(dropped.notes).toContain('141 intervals appeared in more than one intervals file; kept one copy');
  });

  it('keeps the span of dropped echoes and the intervals that echo nothing', async () => {
    const dir = await variant('span', (d) =>
      editItems(d, (items) => {
        const echo = structuredClone(items[5] as Item);
        echo.to = '2021-11-03T09:00:00Z';
        const alone = structuredClone(items[5] as Item);
        alone.message = 'not in the log';
        alone.from = '2021-11-03T01:00:00Z';
        return [...items, echo, structuredClone(items[7] as Item), alone, structuredClone(alone)];
      }),
    );
    const { dropped, history } = await bothWays(dir);
    expect(history.span?.to).toBe(Date.parse('2021-11-03T09:00:00Z'));
    expect(dropped.monitorIntervals.filter((i) => i.message.humanMessage === 'not in the log')).toHaveLength(
      1,
    );
    expect(dropped.notes).toContain('2 intervals appeared in more than one intervals file; kept one copy');
  });

  it('does not count twice what a file read again from the start dropped', async () => {
    // Two `items` keys: streaming gives up at the second, and the whole file is read again.
    const dir = await variant('reread', async (d) => {
      const file = join(d, INTERVALS);
      const { items } = JSON.parse(await readFile(file, 'utf8')) as { items: Item[] };
      await writeFile(
        file,
        `{"items": ${JSON.stringify(items.slice(0, 40))}, "items": ${JSON.stringify(items)}}`,
      );
    });
    const { dropped } = await bothWays(dir);
    expect(dropped.notes.some((n) => n.includes('appeared in more than one'))).toBe(false);
  });

  it('reads in the usual order when no file name gives the year', async () => {
    const dir = await variant('no-name-year', (d) =>
      rename(join(d, INTERVALS), join(d, `${JUNIT}/e2e-intervals.json`)),
    );
    const { dropped } = await bothWays(dir);
    expect(dropped.monitorIntervals.filter((i) => i.source !== 'build-log')).toHaveLength(0);
  });

  it('reports the error the usual order meets first when the log is broken', async () => {
    const dir = await variant('broken', async (d) => {
      await writeFile(join(d, 'build-log.txt'), Buffer.from([0, 1, 2, 3]));
      const co = join(d, 'artifacts/e2e-aws-upgrade/gather-extra/artifacts/clusteroperators.json');
      await writeFile(co, '{"items": [');
    });
    await expect(loadHistory([dir])).rejects.toThrow(/clusteroperators\.json: invalid JSON/);
    await rm(join(dir, 'artifacts/e2e-aws-upgrade/gather-extra/artifacts/clusteroperators.json'));
    await expect(loadHistory([dir])).rejects.toThrow(/build-log\.txt: binary data/);
  });
});
