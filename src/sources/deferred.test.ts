import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DeferredJson, InputError, resolveDeferred } from '../model/index.js';
import { JsonItemsReader } from './json-items.js';

const tiny = { batchBytes: 40, largeItemBytes: 60, pieceBytes: 16 };

/** Stream `text` through a reader that defers `paths`; the items as they arrive. */
function streamDeferred(text: string, chunk: number, paths: string[]): unknown[] {
  const items: unknown[] = [];
  const reader = new JsonItemsReader((batch) => items.push(...batch), tiny, {
    paths: new Set(paths),
    make: (bytes, index, path) => new DeferredJson(bytes, 'machineconfigs.json', `items[${index}].${path}`),
  });
  const bytes = Buffer.from(text);
  for (let i = 0; i < bytes.length; i += chunk) reader.write(bytes.subarray(i, i + chunk));
  reader.end();
  return items;
}

describe('deferred members (KINDS.MachineConfig.deferred)', () => {
  const config = {
    ignition: { version: '3.2.0' },
    storage: { files: [{ path: '/etc/a', contents: { source: 'data:,x'.repeat(20) } }] },
  };
  const list = {
    kind: 'MachineConfigList',
    items: [
      { kind: 'MachineConfig', metadata: { name: 'small' }, spec: { config: { a: 1 } } },
      {
        kind: 'MachineConfig',
        metadata: { name: 'rendered-master-1' },
        spec: { osImageURL: 'quay.io/os', config },
      },
    ],
  };

  it('keeps a large member as bytes, and gives back what JSON.parse gives, as a value and through JSON.stringify', () => {
    const items = streamDeferred(JSON.stringify(list), 7, ['spec.config']) as {
      spec: Record<string, unknown>;
    }[];
    // The small item is parsed as a batch: nothing to gain from deferring it.
    expect(items[0]?.spec.config).toEqual({ a: 1 });
    const deferred = items[1]?.spec.config;
    expect(deferred).toBeInstanceOf(DeferredJson);
    expect(items[1]?.spec.osImageURL).toBe('quay.io/os');
    expect(resolveDeferred(deferred)).toEqual(config);
    expect(JSON.parse(JSON.stringify(items))).toEqual(list.items);
  });

  it('defers nothing inside arrays, nor paths it was not given', () => {
    const items = streamDeferred(JSON.stringify(list), 64, ['spec.other']) as {
      spec: Record<string, unknown>;
    }[];
    expect(items[1]?.spec.config).toEqual(config);
  });

  it('reports a syntax error only when the value is read, naming the file and the JSON path', () => {
    const text = JSON.stringify(list).replace('"3.2.0"', '"3.2.0\\q"');
    const items = streamDeferred(text, 11, ['spec.config']) as { spec: { config: DeferredJson } }[];
    const config = items[1]?.spec.config;
    expect(() => config?.value()).toThrow(InputError);
    expect(() => config?.value()).toThrow('machineconfigs.json: items[1].spec.config: not valid JSON');
  });

  it('streams any large item to what JSON.parse gives once deferred values are read', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ spec: fc.record({ config: fc.jsonValue({ maxDepth: 3 }) }) }), { maxLength: 4 }),
        fc.integer({ min: 1, max: 50 }),
        (items, chunk) => {
          const text = JSON.stringify({ items });
          const got = streamDeferred(text, chunk, ['spec.config']);
          expect(JSON.stringify(got)).toBe(JSON.stringify(items));
        },
      ),
      { numRuns: 200 },
    );
  });
});
