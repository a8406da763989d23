/**
 * Issue 10's standing properties: any byte string, given as any kind of input, ends in exit 0, 1, 2 or
 * 4 within a time bound: never 3 (an internal error), a signal, a stack trace, a raw control byte on
 * stderr, or more than 1 GiB of memory. Byte strings are random, random after a format's magic
 * (gzip, zstd, xz, tar, JSON, YAML), structured trees with hostile keys, or mutations of valid files.
 * HOSTILE_RUNS sets the runs per input kind (default 30).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as gen from './gen.js';
import { problems, runCli } from './run.js';

const RUNS = Number(process.env.HOSTILE_RUNS ?? 30);
const TIME_BOUND_MS = 30_000;
const ROOT = join(import.meta.dirname, '..', '..');

let dir: string;
let plain: string;
let seq = 0;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'atlevel-props-'));
  plain = gen.plainConfig(dir);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const MAGICS: readonly Uint8Array[] = [
  Uint8Array.from([0x1f, 0x8b, 0x08, 0x00]), // gzip
  Uint8Array.from([0x28, 0xb5, 0x2f, 0xfd]), // zstd
  Uint8Array.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]), // xz
  Uint8Array.from([0x42, 0x5a, 0x68]), // bzip2
  Buffer.from('{"kind":"List","apiVersion":"v1","items":['),
  Buffer.from('apiVersion: machineconfiguration.openshift.io/v1\nkind: MachineConfig\n'),
  Buffer.from('---\na: &a [*a]\n'),
  Buffer.from('name: x\nlatencies:\n  boot: '),
  Buffer.from(
    'Nov 03 03:23:03.719 W clusteroperator/machine-config condition/Progressing status/True changed: ',
  ),
];

/** A 512-byte tar header for `name` followed by `body`, so tar readers get past the first block. */
function tarOf(name: string, body: Uint8Array): Buffer {
  const h = Buffer.alloc(512);
  h.write(name.slice(0, 99), 0, 'utf8');
  h.write('0000644\0', 100);
  h.write('0000000\0', 108);
  h.write('0000000\0', 116);
  h.write(`${body.length.toString(8).padStart(11, '0')}\0`, 124);
  h.write('00000000000\0', 136);
  h.write('        ', 148);
  h.write('0', 156);
  h.write('ustar\0' + '00', 257);
  let sum = 0;
  for (const b of h) sum += b;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  const pad = Buffer.alloc((512 - (body.length % 512)) % 512);
  return Buffer.concat([h, Buffer.from(body), pad, Buffer.alloc(1024)]);
}

const HOSTILE_KEYS = [
  'constructor',
  '__proto__',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'kind',
  'items',
  'spec',
  'config',
  'storage',
  'files',
  'path',
  'source',
  'name',
];

const hostileTree = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(
      null,
      true,
      0,
      -1,
      1e308,
      '',
      'data:,%zz',
      'data:;base64,H4sI',
      `\u001b]0;x\u0007`,
      'MachineConfig',
      'List',
    ),
    fc.string({ unit: 'binary', maxLength: 30 }),
    fc.array(tie('node'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.constantFrom(...HOSTILE_KEYS), fc.string({ maxLength: 8 })), tie('node'), {
      maxKeys: 4,
    }),
  ),
})).node;

function mutate(base: Buffer): fc.Arbitrary<Uint8Array> {
  return fc
    .tuple(fc.nat({ max: base.length }), fc.uint8Array({ maxLength: 16 }), fc.boolean())
    .map(([at, bytes, truncate]) =>
      truncate
        ? base.subarray(0, at)
        : Buffer.concat([base.subarray(0, at), bytes, base.subarray(at + bytes.length)]),
    );
}

function bytesFor(valid: Buffer): fc.Arbitrary<Uint8Array> {
  return fc.oneof(
    fc.uint8Array({ maxLength: 4096 }),
    fc
      .tuple(fc.constantFrom(...MAGICS), fc.uint8Array({ maxLength: 2048 }))
      .map(([m, rest]) => Buffer.concat([m, rest])),
    hostileTree.map((t) => Buffer.from(JSON.stringify(t) ?? 'null')),
    hostileTree.map((t) =>
      Buffer.from(
        JSON.stringify({
          apiVersion: 'machineconfiguration.openshift.io/v1',
          kind: 'MachineConfig',
          metadata: { name: 'p' },
          spec: { config: t },
        }),
      ),
    ),
    mutate(valid),
  );
}

const VALID_MC = Buffer.from(
  JSON.stringify(
    gen.machineConfig('valid', {
      ignition: { version: '3.2.0' },
      storage: { files: [{ path: '/etc/a', contents: { source: 'data:,hello%0A' } }] },
      systemd: { units: [{ name: 'a.service', enabled: true, contents: '[Unit]\n' }] },
    }),
  ),
);
const VALID_SCENARIO = Buffer.from(
  'name: s\npools:\n  - name: master\n    nodes: 1\n  - name: worker\n    nodes: 1\nlatencies:\n  boot: 30s\n',
);
const EXAMPLES = join(ROOT, 'examples', 'bug-2019850');
const VALID_RELEASE = readFileSync(join(EXAMPLES, 'release', 'release-to.json'));
const VALID_CV = readFileSync(
  join(EXAMPLES, 'artifacts', 'e2e-aws-upgrade', 'gather-extra', 'artifacts', 'clusterversion.json'),
);

const FOLDER_FILES = [
  join('artifacts', 'e2e', 'gather-extra', 'artifacts', 'clusterversion.json'),
  join('artifacts', 'e2e', 'gather-extra', 'artifacts', 'machineconfigs.json'),
  join('artifacts', 'e2e', 'gather-extra', 'artifacts', 'nodes.json.gz'),
  join('artifacts', 'e2e', 'openshift-e2e-test', 'artifacts', 'junit', 'e2e-intervals_20211103-025021.json'),
  'build-log.txt',
  join('must', 'cluster-scoped-resources', 'config.openshift.io', 'clusterversions.yaml'),
  'notes.yaml',
];

function fresh(name: string): string {
  const p = join(dir, `${seq++}-${name}`);
  return p;
}

async function holds(args: readonly string[]): Promise<void> {
  const r = await runCli(args, { timeoutMs: TIME_BOUND_MS });
  expect(problems(r), `atlevel ${args.join(' ')}\nstderr: ${r.stderr.slice(0, 800)}`).toEqual([]);
}

const KINDS: readonly { name: string; arb: fc.Arbitrary<unknown>; run: (v: never) => Promise<void> }[] = [
  {
    name: 'a file in a CI run folder',
    arb: fc.tuple(fc.constantFrom(...FOLDER_FILES), bytesFor(VALID_CV)),
    run: async ([rel, bytes]: [string, Uint8Array]) => {
      const root = gen.miniRun(dir, `${seq++}-run`);
      mkdirSync(join(root, rel, '..'), { recursive: true });
      writeFileSync(join(root, rel), bytes);
      await holds(['analyze', root]);
    },
  },
  {
    name: 'an archive',
    arb: fc.tuple(fc.constantFrom('x.tar', 'x.tar.gz', 'x.tgz'), fc.boolean(), bytesFor(VALID_CV)),
    run: async ([name, wrap, bytes]: [string, boolean, Uint8Array]) => {
      const p = fresh(name);
      writeFileSync(
        p,
        wrap ? tarOf('run/artifacts/e2e/gather-extra/artifacts/clusterversion.json', bytes) : bytes,
      );
      await holds(['analyze', p]);
    },
  },
  {
    name: 'a MachineConfig given to diff',
    arb: fc.tuple(fc.constantFrom('a.yaml', 'a.json'), bytesFor(VALID_MC)),
    run: async ([name, bytes]: [string, Uint8Array]) => {
      const p = fresh(name);
      writeFileSync(p, bytes);
      await holds(['diff', p, plain]);
    },
  },
  {
    name: 'release info',
    arb: bytesFor(VALID_RELEASE),
    run: async (bytes: Uint8Array) => {
      const p = fresh('release.json');
      writeFileSync(p, bytes);
      await holds(['release', 'info', p]);
    },
  },
  {
    name: 'a release given to diff --release-from',
    arb: bytesFor(VALID_RELEASE),
    run: async (bytes: Uint8Array) => {
      const p = fresh('release-from.json');
      writeFileSync(p, bytes);
      await holds(['diff', plain, plain, '--release-from', p, '--release-to', p]);
    },
  },
  {
    name: 'a simulate scenario',
    arb: bytesFor(VALID_SCENARIO),
    run: async (bytes: Uint8Array) => {
      const p = fresh('scenario.yaml');
      writeFileSync(p, bytes);
      await holds(['simulate', '--scenario', p]);
    },
  },
];

describe(`any bytes as any input kind: exit 0/1/2/4 within ${TIME_BOUND_MS / 1000} s (${RUNS} runs per kind, ${RUNS * KINDS.length} in all)`, () => {
  for (const kind of KINDS) {
    it.concurrent(
      kind.name,
      async () => {
        await fc.assert(
          fc.asyncProperty(kind.arb, (v) => kind.run(v as never)),
          { numRuns: RUNS },
        );
      },
      RUNS * TIME_BOUND_MS,
    );
  }
});
