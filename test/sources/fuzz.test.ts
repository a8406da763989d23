/**
 * Property test: whatever the files hold (random JSON in place of objects, truncated documents,
 * random bytes, hostile strings in names), loading either succeeds or throws an InputError, never
 * another exception, never a hang, and never lets control characters reach a message.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import yaml from 'js-yaml';
import * as tar from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InputError } from '../../src/model/errors.js';
import { loadHistoryParts } from '../helpers/load.js';

let tmp: string;
let n = 0;
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'atlevel-fuzz-'));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

const hostile = fc.oneof(
  fc.constantFrom(
    '<img src=x onerror=alert(1)>',
    '\u001b[31mred\u001b[0m',
    '\u0000nul',
    '__proto__',
    'constructor',
    '../../etc/passwd',
    '🙂',
    '',
    'master',
    '2021-11-03T03:23:09Z',
  ),
  fc.string({ maxLength: 20 }),
);

const kind = fc.constantFrom(
  'ClusterVersion',
  'ClusterOperator',
  'MachineConfigPool',
  'MachineConfig',
  'Node',
  'Event',
  'Pod',
  'PodDisruptionBudget',
  'ControllerConfig',
  'List',
  'Secret',
  'ImageStream',
  undefined,
);

const condition = fc.record(
  {
    type: hostile,
    status: fc.oneof(hostile, fc.constantFrom('True', 'False')),
    lastTransitionTime: fc.oneof(hostile, fc.constant(null)),
  },
  { requiredKeys: [] },
);

const object = fc.record(
  {
    kind,
    apiVersion: fc.constantFrom('v1', 'events.k8s.io/v1', 'config.openshift.io/v1'),
    metadata: fc.oneof(
      fc.record(
        { name: hostile, namespace: hostile, resourceVersion: fc.oneof(hostile, fc.nat().map(String)) },
        { requiredKeys: ['name'] },
      ),
      fc.jsonValue({ maxDepth: 2 }),
    ),
    status: fc.oneof(
      fc.record({
        conditions: fc.oneof(fc.array(condition, { maxLength: 3 }), fc.jsonValue({ maxDepth: 1 })),
      }),
      fc.jsonValue({ maxDepth: 2 }),
    ),
    spec: fc.oneof(
      fc.record({
        tags: fc.array(fc.record({ name: hostile, from: fc.record({ name: hostile }) }), { maxLength: 2 }),
      }),
      fc.jsonValue({ maxDepth: 2 }),
    ),
    regarding: fc.record({ kind: hostile, name: hostile }),
    note: hostile,
  },
  { requiredKeys: ['metadata'] },
);

const intervalItem = fc.record(
  {
    level: fc.oneof(fc.constantFrom('Info', 'Warning', 'Error'), hostile),
    locator: fc.oneof(
      hostile,
      fc.record({ type: hostile, keys: fc.dictionary(hostile, hostile, { maxKeys: 3 }) }),
      fc.jsonValue({ maxDepth: 1 }),
    ),
    message: fc.oneof(
      hostile,
      fc.record({ reason: hostile, humanMessage: hostile, annotations: fc.jsonValue({ maxDepth: 1 }) }),
    ),
    from: fc.oneof(fc.constant('2021-11-03T03:23:09Z'), hostile, fc.constant(null)),
    to: fc.oneof(fc.constant('2021-11-03T03:23:19Z'), hostile, fc.constant(null)),
  },
  { requiredKeys: [] },
);

const document = fc.oneof(
  object,
  fc.record({
    kind: fc.constant('List'),
    items: fc.array(fc.oneof(object, fc.jsonValue({ maxDepth: 1 })), { maxLength: 4 }),
  }),
  fc.record({ items: fc.array(intervalItem, { maxLength: 4 }) }),
  fc.record({ references: object, metadata: fc.record({ version: hostile }) }),
  fc.record({
    status: fc.constant('success'),
    data: fc.record({ alerts: fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 }) }),
  }),
  fc.jsonValue({ maxDepth: 3 }),
);

const logLine = fc
  .tuple(
    fc.constantFrom('Nov 03', 'Nov  3', 'Dec 31', 'Jan 01', 'Feb 30', 'Foo 99'),
    fc.constantFrom('03:23:09.856', '23:59:59.999', '99:99:99.999'),
    fc.constantFrom(' I ', ' W ', ' - 6s    E ', ' - 12ms I ', ': INFO: '),
    fc.constantFrom(
      'clusteroperator/',
      'node/',
      'ns/x pod/',
      'e2e-test/"',
      'Pool ',
      'Completed upgrade to ',
      '',
    ),
    hostile,
    fc.constantFrom(
      ' condition/Progressing status/True changed: ',
      ' versions: ',
      ' is still reporting (Updated: true, Updating: false, Degraded: false)',
      ' reason/',
    ),
    hostile,
  )
  .map((parts) => parts.join(''));

const content = fc.oneof(
  document.map((d) => JSON.stringify(d)),
  fc.tuple(document, fc.nat()).map(([d, cut]) => {
    const text = JSON.stringify(d) ?? '';
    return text.slice(0, text.length === 0 ? 0 : cut % text.length);
  }),
  fc
    .array(document, { minLength: 1, maxLength: 3 })
    .map((docs) => docs.map((d) => yaml.dump(d, { schema: yaml.CORE_SCHEMA })).join('---\n')),
  fc.array(logLine, { maxLength: 8 }).map((lines) => lines.join('\n')),
  fc.uint8Array({ maxLength: 600 }).map((bytes) => Buffer.from(bytes)),
);

const fileName = fc.constantFrom(
  'nodes.json',
  'machineconfigpools.json',
  'clusterversion.json',
  'events.json.gz',
  'build-log.txt',
  'build-log.txt.gz',
  'e2e-events_20211103-021533.json',
  'e2e-timelines_spyglass_20211103-021533.json',
  'objects.yaml',
  'more.json',
  'image-references',
  'mg/cluster-scoped-resources/core/nodes/n1.yaml',
  'mg/namespaces/ns/core/events.yaml',
  'mg/monitoring/alerts.json',
);

const files = fc.array(fc.tuple(fileName, content, fc.boolean()), { minLength: 1, maxLength: 3 });

function controlFree(text: string): boolean {
  return !/[\u0000-\u0008\u000b-\u001f\u007f]/.test(text);
}

async function check(paths: string[], maxFileBytes: number | undefined): Promise<boolean> {
  try {
    const parts = await loadHistoryParts(paths, maxFileBytes === undefined ? {} : { maxFileBytes });
    return parts.notes.every(controlFree);
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    return controlFree(err.problem) && controlFree(err.hint ?? '');
  }
}

describe('loadHistoryParts on random inputs', () => {
  // The bound guards against a hang, not a speed goal: 120 cases build folders and tarballs, which on
  // a loaded 2-core machine has taken over a minute.
  it('succeeds or throws InputError', async () => {
    await fc.assert(
      fc.asyncProperty(
        files,
        fc.option(fc.integer({ min: 50, max: 4000 })),
        fc.boolean(),
        async (entries, cap, pack) => {
          const dir = join(tmp, `f${n++}`);
          await mkdir(dir, { recursive: true });
          for (const [name, body, gzip] of entries) {
            const path = join(dir, name);
            await mkdir(join(path, '..'), { recursive: true });
            const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body);
            await writeFile(path, gzip && name.endsWith('.gz') ? gzipSync(bytes) : bytes);
          }
          let target = dir;
          if (pack) {
            target = `${dir}.tar.gz`;
            await tar.c({ gzip: true, file: target, cwd: dir, portable: true }, ['.']);
          }
          return check([target], cap ?? undefined);
        },
      ),
      // A slow case fails with its seed and shrunk counterexample, not as the test's timeout.
      { numRuns: 120, timeout: 30_000 },
    );
  }, 180_000);

  it('single files given directly succeed or throw InputError', async () => {
    await fc.assert(
      fc.asyncProperty(fileName, content, async (name, body) => {
        const dir = join(tmp, `s${n++}`);
        const path = join(dir, name.replace(/^mg\/.*\//, ''));
        await mkdir(join(path, '..'), { recursive: true });
        await writeFile(path, body);
        return check([path], undefined);
      }),
      // A slow case fails with its seed and shrunk counterexample, not as the test's timeout.
      { numRuns: 120, timeout: 30_000 },
    );
  }, 180_000);

  it('the hostile fixture strings stay out of messages as control characters', async () => {
    const dir = join(tmp, 'ansi');
    await mkdir(dir, { recursive: true });
    await writeFile(
      join(dir, 'nodes.json'),
      JSON.stringify({
        kind: 'List',
        items: [
          {
            kind: 'Node',
            metadata: { name: '\u001b[31m<img src=x onerror=alert(1)>' },
            status: { conditions: 1 },
          },
        ],
      }),
    );
    const err = await loadHistoryParts([dir]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).problem).toBe(
      'items[0] (Node ?[31m<img src=x onerror=alert(1)>): status.conditions: expected array',
    );
  });
});
