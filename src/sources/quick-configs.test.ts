import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { Budget, DeferredJson, InputError } from '../model/index.js';
import { DEFAULT_MAX_FILE_BYTES } from './bytes.js';
import { placeReleases } from './given-releases.js';
import { indexItems } from './items-index.js';
import { quickMachineConfigs } from './quick-configs.js';
import { readInput } from './readers.js';
import { ObjectStore } from './store.js';

const dir = mkdtempSync(join(tmpdir(), 'atlevel-quick-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Outcome = { configs: string; deferred: string; releases: string } | { error: string };

/** The configs in comparable terms: values as JSON (a deferred member as what it parses to), refs, and which members stayed bytes. */
function outcome(configs: readonly { object: unknown; ref: unknown }[], releases: unknown): Outcome {
  const deferred = configs.map((c) => {
    const config = (c.object as { spec?: { config?: unknown } }).spec?.config;
    return config instanceof DeferredJson;
  });
  try {
    return {
      configs: JSON.stringify(configs),
      deferred: JSON.stringify(deferred),
      releases: JSON.stringify(releases),
    };
  } catch (err) {
    // A deferred config that is not JSON: said when it is read, the same way on both paths.
    if (err instanceof InputError) return { error: err.message };
    throw err;
  }
}

async function both(text: string | Buffer): Promise<{ quick: Outcome | undefined; full: Outcome }> {
  const file = join(dir, 'machineconfigs.json');
  writeFileSync(file, text);
  const quick = quickMachineConfigs(file, { budget: new Budget() });
  let full: Outcome;
  try {
    // The ordinary reader, streaming in chunks (and reading again whole when it must), put together
    // as load.ts assembles a lone file's results.
    const bytes = Buffer.from(text);
    const chunks = async function* () {
      for (let i = 0; i < bytes.length; i += 65_536) yield bytes.subarray(i, i + 65_536);
    };
    const spec = { reader: 'gather-extra', expect: 'MachineConfig' } as const;
    const limits = { maxFileBytes: DEFAULT_MAX_FILE_BYTES, budget: new Budget() };
    const result = await readInput(spec, file, 'machineconfigs.json', bytes.length, chunks(), limits, {
      reopen: chunks,
    });
    const store = new ObjectStore();
    for (const o of result.objects) store.put(o.kind, o.object, o.ref);
    const releases = placeReleases([], { payloads: {}, inputs: [] }, undefined, []).releases;
    full = outcome(store.snapshot().machineConfigs, releases);
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    full = { error: err.message };
  }
  return { quick: quick && outcome(quick.machineConfigs, quick.releases), full };
}

/** A string of about `n` characters, some of them escapes and brackets, as Ignition data and unit text hold. */
const filler = (n: number) =>
  fc
    .array(
      // Runs of backslashes before a quote too: `\\"` is an escaped quote, `\\\\"` ends the string.
      fc.constantFrom('a', 'b ', '\\', '"', '\\"', '\\\\', '{', '}', '[', ']', '%22', '\n', 'é', '\u2028'),
      {
        minLength: 1,
        maxLength: 8,
      },
    )
    .map((parts) =>
      parts
        .join('')
        .repeat(Math.ceil(n / Math.max(1, parts.join('').length)))
        .slice(0, n),
    );

const configArb = fc.oneof(
  { arbitrary: fc.constant(undefined), weight: 1 },
  { arbitrary: fc.record({ ignition: fc.constant({ version: '3.2.0' }) }), weight: 1 },
  // Above PIECE_BYTES (32 KiB): kept as bytes when the item is above LARGE_ITEM_BYTES (64 KiB). Each
  // size falls on either side of both thresholds, for an item with one or two files.
  {
    arbitrary: fc.tuple(fc.constantFrom(15_000, 28_000, 40_000, 70_000), fc.nat(1)).chain(([n, files]) =>
      filler(n).map((s) => ({
        ignition: { version: '3.4.0' },
        storage: {
          files: Array.from({ length: files + 1 }, (_, i) => ({ path: `/f${i}`, contents: { source: s } })),
        },
      })),
    ),
    weight: 3,
  },
);

const itemArb = fc.record(
  {
    apiVersion: fc.constant('machineconfiguration.openshift.io/v1'),
    kind: fc.constantFrom('MachineConfig', undefined),
    metadata: fc.record(
      {
        name: fc.constantFrom('rendered-master-a', 'rendered-master-b', 'rendered-worker-c', '00-master', ''),
        creationTimestamp: fc.constantFrom('2021-11-01T00:00:00Z', '2021-11-02T00:00:00Z', null),
        resourceVersion: fc.constantFrom('1', '2', '10'),
        annotations: fc.constantFrom({ a: 'b' }, { a: null }),
        ownerReferences: fc.constant([{ kind: 'MachineConfigPool', name: 'master' }]),
      },
      { requiredKeys: ['name'] },
    ),
    spec: fc.record(
      {
        osImageURL: fc.constantFrom('quay.io/x@sha256:1', 5),
        config: configArb,
        // Pushes an item over LARGE_ITEM_BYTES with a small config, or the spec over PIECE_BYTES.
        extra: fc.oneof(fc.constant(''), filler(40_000)),
        kernelArguments: fc.constantFrom(['a'], null),
      },
      { requiredKeys: ['config'] },
    ),
  },
  { requiredKeys: ['metadata', 'spec'] },
);

/** Edits of the text that the index must not be fooled by. */
const MUTATIONS: ((text: string, at: number) => string | Buffer)[] = [
  (t) => t,
  (t, at) => t.slice(0, at),
  (t, at) => `${t.slice(0, at)}]${t.slice(at)}`,
  (t, at) => `${t.slice(0, at)}"${t.slice(at)}`,
  (t) => t.replace('"spec":', '"sp\\u0065c":'),
  (t) => t.replace('"spec":', '"spec":{},"spec":'),
  (t) => t.replace('"config":', '"config":{},"config":'),
  (t) => t.replace('"items":', '"items":[],"items":'),
  (t) => t.replace(/}\s*]\s*,\s*"metadata"/, '},]'),
  (t) =>
    t.replace('"kind": "List"', '"kind": "MachineConfig"').replace('"kind":"List"', '"kind":"MachineConfig"'),
  (t) => `${t} x`,
  (t) => `\ufeff${t}`,
  // Bytes no JSON string may hold, most often inside a long one the index jumps over: a control
  // character, a lone backslash (escaping the byte after it), a byte that is not UTF-8.
  (t, at) => `${t.slice(0, at)}\u0001${t.slice(at)}`,
  (t, at) => `${t.slice(0, at)}\\${t.slice(at)}`,
  (t, at) => {
    const b = Buffer.from(t);
    const k = Math.min(at, b.length);
    return Buffer.concat([b.subarray(0, k), Buffer.from([0xff]), b.subarray(k)]);
  },
];

describe('quickMachineConfigs', () => {
  it('gives what the ordinary reader gives, or steps aside (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(itemArb, { minLength: 1, maxLength: 4 }),
        fc.constantFrom('List', 'MachineConfigList', undefined),
        fc.constantFrom(undefined, 0, 4),
        // Half the Lists are left clean: the ones the quick reader must answer for.
        fc.oneof(fc.constant(0), fc.nat(MUTATIONS.length - 1)),
        fc.double({ min: 0, max: 1, noNaN: true }),
        async (items, kind, indent, mutation, where) => {
          const doc = {
            apiVersion: 'v1',
            ...(kind ? { kind } : {}),
            items,
            metadata: { resourceVersion: '' },
          };
          const text = JSON.stringify(doc, null, indent);
          const mutate = MUTATIONS[mutation] as (t: string, at: number) => string | Buffer;
          const edited = mutate(text, Math.floor(where * text.length));
          const { quick, full } = await both(edited);
          if (quick !== undefined) expect(quick).toEqual(full);
          // On a clean List it must not step aside: the property would hold by never answering.
          if (mutation === 0 && !('error' in full)) expect(quick).toBeDefined();
        },
      ),
      { numRuns: 120 },
    );
  }, 120_000);

  it('keeps large configs as bytes and parses only the rest', async () => {
    const big = {
      ignition: { version: '3.4.0' },
      storage: { files: [{ contents: { source: 'x'.repeat(70_000) } }] },
    };
    const items = ['a', 'b'].map((n) => ({
      kind: 'MachineConfig',
      metadata: { name: `rendered-master-${n}` },
      spec: { config: big },
    }));
    const text = JSON.stringify({ kind: 'List', items }, null, 4);
    writeFileSync(join(dir, 'machineconfigs.json'), text);
    const quick = quickMachineConfigs(join(dir, 'machineconfigs.json'), { budget: new Budget() });
    expect(quick?.machineConfigs.map((c) => c.object.spec?.config instanceof DeferredJson)).toEqual([
      true,
      true,
    ]);
    expect(quick?.deferredBytes).toBeGreaterThan(140_000);
    expect(quick?.parsedBytes).toBeLessThan(2_000);
  });

  it('steps aside for other names, compressed files and folders', () => {
    const text = JSON.stringify({
      kind: 'List',
      items: [{ kind: 'MachineConfig', metadata: { name: 'a' } }],
    });
    writeFileSync(join(dir, 'mcs.json'), text);
    expect(quickMachineConfigs(join(dir, 'mcs.json'), { budget: new Budget() })).toBeUndefined();
    expect(quickMachineConfigs(dir, { budget: new Budget() })).toBeUndefined();
    expect(quickMachineConfigs('-', { budget: new Budget() })).toBeUndefined();
    expect(
      quickMachineConfigs('https://example.invalid/machineconfigs.json', { budget: new Budget() }),
    ).toBeUndefined();
  });
});

describe('indexItems', () => {
  const at = (text: string) => indexItems(Buffer.from(text), ['spec.config']);

  it('finds items and the members on a path, and the objects on the way', () => {
    const text = '{"items": [ {"spec": {"x": "}", "config": [1, {"a": "]"}]}} , {"kind": "y"} ], "k": 1}';
    const index = at(text);
    expect(index?.list.length).toBe(2);
    const config = index?.list[0]?.members.get('spec.config');
    expect(text.slice(config?.start, config?.end)).toBe('[1, {"a": "]"}]');
    const spec = index?.list[0]?.parents.get('spec');
    expect(text.slice(spec?.start, spec?.end)).toBe('{"x": "}", "config": [1, {"a": "]"}]}');
    expect(text.slice(index?.items.start, index?.items.end)).toMatch(/^\[.*\]$/);
  });

  it('finds the items and members JSON.parse finds, whatever quotes and backslashes their strings hold (property)', () => {
    // Strings on both sides of the length past which the closing quote is searched natively (48
    // bytes), made of escaped quotes, runs of backslashes and brackets, in keys and values, on the
    // path and off it.
    const unit = fc.constantFrom('a', '"', '\\', '\\"', '\\\\"', '}', ']', '{', 'é');
    const text = fc.oneof(
      fc.string({ unit, maxLength: 20 }),
      fc.string({ unit, minLength: 40, maxLength: 70 }),
    );
    const value = fc.oneof(text, fc.array(text, { maxLength: 3 }), fc.dictionary(text, text, { maxKeys: 3 }));
    const item = fc.record(
      {
        metadata: fc.dictionary(text, value, { maxKeys: 3 }),
        spec: fc.record({ before: value, config: fc.dictionary(text, value, { maxKeys: 3 }), after: value }),
      },
      { requiredKeys: ['spec'] },
    );
    fc.assert(
      fc.property(fc.array(item, { maxLength: 4 }), fc.constantFrom(undefined, 2), (items, indent) => {
        const json = JSON.stringify({ kind: 'List', items, metadata: { 'a"b': 'x' } }, null, indent);
        const bytes = Buffer.from(json);
        const index = indexItems(bytes, ['spec.config']);
        expect(index?.list.length).toBe(items.length);
        index?.list.forEach((found, k) => {
          expect(JSON.parse(bytes.toString('utf8', found.start, found.end))).toEqual(items[k]);
          const config = found.members.get('spec.config');
          expect(config && JSON.parse(bytes.toString('utf8', config.start, config.end))).toEqual(
            items[k]?.spec.config,
          );
        });
      }),
      { numRuns: 400 },
    );
  });

  it('is unsure of anything it could misread', () => {
    expect(at('{"items": [{"spec": {"config": {"a": [}}}]}')).toBeUndefined(); // mismatched bracket
    expect(at('{"items": [{"spec": {"config": {"a": "x}}}]}')).toBeUndefined(); // unterminated string
    expect(at('{"items": [{"sp\\u0065c": {}}]}')).toBeUndefined(); // an escape in a key that matters
    expect(at('{"items": [{"spec": {}, "spec": {}}]}')).toBeUndefined(); // a path key twice
    expect(at('{"items": [], "items": []}')).toBeUndefined();
    expect(at('{"items": ["a"]}')).toBeUndefined();
    expect(at('{"items": [{},]}')).toBeUndefined();
    expect(at('{"items": [{}] } x')).toBeUndefined();
    expect(at('[{"items": []}]')).toBeUndefined();
    expect(at(`{"items": [{"spec": {"config": ${'['.repeat(2000)}${']'.repeat(2000)}}}]}`)).toBeUndefined();
    expect(at('{"items": [{"spec": {"config": {"a": "\\\\"}}}]}')).toBeDefined(); // an escaped backslash ends no string
  });
});
