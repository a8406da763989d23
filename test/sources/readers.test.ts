/**
 * readInput streams gather-extra Lists and interval files when it can read a file again (`reopen`),
 * and reads them whole otherwise: both must give the same result, and the same errors.
 */
import { createReadStream } from 'node:fs';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeLargeRun } from '../../bench/large-run.js';
import { InputError } from '../../src/model/errors.js';
import type { ReaderSpec } from '../../src/sources/layouts/index.js';
import { type FileResult, readInput } from '../../src/sources/readers.js';

let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'atlevel-readers-'));
  await writeLargeRun(join(tmp, 'run'), { intervals: 500, renderedPerPool: 2, nodes: 5, events: 50 });
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

const GA = 'run/artifacts/e2e-aws-upgrade/gather-extra/artifacts';
const LIMITS = { maxFileBytes: 1 << 30 };

async function read(spec: ReaderSpec, path: string, streamed: boolean): Promise<FileResult | InputError> {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const { size } = await stat(path);
  const open = () => createReadStream(path, { highWaterMark: 4096 });
  try {
    return await readInput(spec, path, name, size, open(), LIMITS, streamed ? { reopen: open } : {});
  } catch (err) {
    if (err instanceof InputError) return err;
    throw err;
  }
}

/** Streamed and whole give the same result (or the same error); returns it. */
async function same(spec: ReaderSpec, path: string): Promise<FileResult | InputError> {
  const whole = await read(spec, path, false);
  const streamed = await read(spec, path, true);
  if (whole instanceof InputError) {
    expect(streamed).toBeInstanceOf(InputError);
    expect((streamed as InputError).message).toBe(whole.message);
  } else {
    expect(JSON.stringify(streamed)).toBe(JSON.stringify(whole));
  }
  return streamed;
}

async function write(name: string, text: string | Buffer): Promise<string> {
  const path = join(tmp, name);
  await writeFile(path, text);
  return path;
}

describe('streamed reading', () => {
  it('reads rendered configs of 190 KB each as the whole-text reader does', async () => {
    const result = await same(
      { reader: 'gather-extra', expect: 'MachineConfig' },
      join(tmp, GA, 'machineconfigs.json'),
    );
    expect((result as FileResult).objects).toHaveLength(4);
    expect((result as FileResult).objects[3]?.ref).toEqual({
      file: join(tmp, GA, 'machineconfigs.json'),
      path: 'items[3]',
    });
  });

  it('reads gzip, a kind after the items, and an interval file', async () => {
    const events = await readFile(join(tmp, GA, 'events.json'));
    const gz = await write('events.json.gz', gzipSync(events));
    const doc = JSON.parse(events.toString()) as { items: unknown[] };
    // The 50 events asked for, and the workloads' rollout events the large run adds after them.
    expect(doc.items.length).toBeGreaterThan(50);
    expect(
      ((await same({ reader: 'gather-extra', expect: 'Event' }, gz)) as FileResult).objects,
    ).toHaveLength(doc.items.length);
    const after = await write('after.json', JSON.stringify({ items: doc.items, kind: 'EventList' }));
    await same({ reader: 'gather-extra', expect: 'Event' }, after);
    const intervals = join(tmp, 'run/artifacts/e2e-aws-upgrade/openshift-e2e-test/artifacts/junit');
    const e2e = join(intervals, 'e2e-intervals_20211103-025000.json');
    const result = await same({ reader: 'e2e-intervals', source: 'e2e-intervals' }, e2e);
    expect((result as FileResult).intervals).toHaveLength(500);
  });

  it('falls back to the whole-text reader where the file is not a plain List', async () => {
    const node = JSON.parse(await readFile(join(tmp, GA, 'nodes.json'), 'utf8')).items[0];
    // A Node that has an `items` field is one object, not a List.
    const single = await write('single.json', JSON.stringify({ ...node, items: [node] }));
    const result = await same({ reader: 'gather-extra', expect: 'Node' }, single);
    expect((result as FileResult).objects.map((o) => o.ref)).toEqual([{ file: single }]);
  });

  it.each([
    ['a syntax error after a bad item', '{"items": [{"kind": "Pod", "metadata": {"name": "x"}}, ]}'],
    [
      'a bad item',
      '{"items": [{"kind": "Node", "metadata": {"name": "a"}}, {"kind": "Node", "metadata": {}}]}',
    ],
    ['a truncated file', '{"items": [{"kind": "Node", "metadata": {"name": "a"}}'],
    ['binary data', '\u0000\u0001{"items": []}'],
  ])('gives the whole-text error for %s', async (_what, text) => {
    const path = await write('bad.json', text);
    expect(await same({ reader: 'gather-extra', expect: 'Node' }, path)).toBeInstanceOf(InputError);
  });
});
