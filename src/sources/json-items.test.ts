import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ItemsReaderSizes, JsonItemsReader, NotStreamable, parseLarge } from './json-items.js';

interface Streamed {
  items: unknown[];
  members: Record<string, unknown>;
}

/** Stream `text` in chunks of `chunk` bytes; the items (checked to arrive in order) and other members. */
function stream(text: string | Buffer, chunk: number, sizes: ItemsReaderSizes = {}): Streamed {
  const items: unknown[] = [];
  const reader = new JsonItemsReader((batch, first) => {
    expect(first).toBe(items.length);
    items.push(...batch);
  }, sizes);
  const bytes = typeof text === 'string' ? Buffer.from(text) : text;
  const before = Buffer.from(bytes);
  for (let i = 0; i < bytes.length; i += chunk) reader.write(bytes.subarray(i, i + chunk));
  const doc = reader.end();
  // The reader borrows the bytes around a batch while decoding it; the caller's chunks come back as given.
  expect(bytes.equals(before)).toBe(true);
  expect(doc.items).toBe(items.length);
  return { items, members: Object.fromEntries(doc.members) };
}

/** What JSON.parse makes of it, in the same terms. */
function whole(text: string): Streamed {
  const { items, ...members } = JSON.parse(text) as { items: unknown[] };
  return { items, members };
}

/** Equal values with equal key order (what the readers' output depends on). */
function expectSame(a: Streamed, b: Streamed): void {
  expect(JSON.stringify(a.items)).toBe(JSON.stringify(b.items));
  expect(a.items).toEqual(b.items);
  expect(a.members).toEqual(b.members);
}

const tiny: ItemsReaderSizes = { batchBytes: 40, largeItemBytes: 60, pieceBytes: 16 };

const item = fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 6 });
const doc = fc.record({
  before: fc.dictionary(fc.constantFrom('apiVersion', 'kind', 'x', 'é'), fc.jsonValue({ maxDepth: 2 })),
  items: fc.array(item, { maxLength: 8 }),
  after: fc.dictionary(fc.constantFrom('metadata', 'kind', 'y'), fc.jsonValue({ maxDepth: 2 })),
});
const indent = fc.constantFrom(undefined, 1, 4, '\t');
/** A chunk that holds the whole text: where batches are cut without scanning each item. */
const WHOLE = 1 << 20;
const chunkSize = fc.oneof(fc.integer({ min: 1, max: 50 }), fc.constant(WHOLE));

function render(d: { before: object; items: object[]; after: object }, space: string | number | undefined) {
  const { items: _drop, ...before } = d.before as Record<string, unknown>;
  const { items: _drop2, ...after } = d.after as Record<string, unknown>;
  return JSON.stringify({ ...before, items: d.items, ...after }, null, space);
}

describe('JsonItemsReader', () => {
  it('reads a List item by item, whatever the chunking and batch sizes', () => {
    fc.assert(
      fc.property(doc, indent, chunkSize, fc.boolean(), (d, space, chunk, small) => {
        const text = render(d, space);
        expectSame(stream(text, chunk, small ? tiny : {}), whole(text));
      }),
      { numRuns: 400 },
    );
  });

  it('finds where strings end across runs of backslashes and quotes split between chunks', () => {
    const tricky = fc.string({ unit: fc.constantFrom('\\', '"', 'a', '\\"', '\\\\'), maxLength: 12 });
    const items = fc.array(
      fc.dictionary(tricky, fc.oneof(tricky, fc.array(tricky, { maxLength: 3 })), { maxKeys: 3 }),
      {
        maxLength: 6,
      },
    );
    fc.assert(
      fc.property(
        items,
        fc.oneof(fc.integer({ min: 1, max: 9 }), fc.constant(WHOLE)),
        fc.boolean(),
        (list, chunk, small) => {
          const text = JSON.stringify({ kind: 'List', items: list });
          expectSame(stream(text, chunk, small ? tiny : {}), whole(text));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('either reads what JSON.parse reads or gives up, on damaged text', () => {
    fc.assert(
      fc.property(
        doc,
        indent,
        fc.nat(),
        fc.constantFrom('', ',', '}', ']', '{', '[', '"', ':', '\\', 'x', '1', ' ', '\u0000'),
        fc.integer({ min: 0, max: 2 }),
        chunkSize,
        (d, space, at, insert, remove, chunk) => {
          const good = render(d, space);
          const p = at % (good.length + 1);
          const text = good.slice(0, p) + insert + good.slice(p + remove);
          let expected: Streamed | undefined;
          try {
            const value = JSON.parse(text) as unknown;
            const items = (value as { items?: unknown })?.items;
            if (
              typeof value === 'object' &&
              value !== null &&
              !Array.isArray(value) &&
              Array.isArray(items) &&
              items.every((i) => typeof i === 'object' && i !== null && !Array.isArray(i))
            )
              expected = whole(text);
          } catch {
            expected = undefined;
          }
          let got: Streamed | undefined;
          try {
            got = stream(text, chunk, tiny);
          } catch (err) {
            if (!(err instanceof NotStreamable)) throw err;
          }
          // Damage may leave a valid document that is no List (items twice, items not objects):
          // giving up is always allowed; reading something JSON.parse rejects never is.
          if (got !== undefined) {
            expect(expected).toBeDefined();
            if (expected) expectSame(got, expected);
          }
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('gives up on anything stray between items, wherever the batches end', () => {
    const text = JSON.stringify(
      { kind: 'List', items: [{ a: 1 }, { b: [2] }, { c: { d: 3 } }, {}] },
      null,
      2,
    );
    for (const stray of ['x', '1', '{}', '"s"', ':']) {
      for (let at = 0; at <= text.length; at++) {
        if (text[at - 1] !== '}' && text[at - 1] !== ',' && text[at] !== ']') continue;
        const damaged = text.slice(0, at) + stray + text.slice(at);
        const valid = (() => {
          try {
            JSON.parse(damaged);
            return true;
          } catch {
            return false;
          }
        })();
        if (valid) continue;
        for (const batchBytes of [1, 10, 1000])
          for (const chunk of [5, WHOLE])
            expect(
              () => stream(damaged, chunk, { ...tiny, batchBytes }),
              `${damaged} (${batchBytes})`,
            ).toThrow(NotStreamable);
      }
    }
  });

  it('cuts batches only between items, whatever `},{` the items hold in strings and nested arrays', () => {
    // Text that looks like an item's end and the next one's start, inside strings and nested values.
    const lookalike = fc.string({
      unit: fc.constantFrom('},{', '}, {', '}]', '},\n{', '{', '}', ',', ' ', '"', '\\', 'a'),
      maxLength: 8,
    });
    const nested = fc.array(fc.dictionary(fc.constantFrom('a', 'b'), lookalike, { maxKeys: 2 }), {
      maxLength: 3,
    });
    const items = fc.array(fc.record({ s: lookalike, list: nested, o: fc.record({ t: lookalike }) }), {
      maxLength: 12,
    });
    const sizes = fc.record({
      batchBytes: fc.integer({ min: 1, max: 120 }),
      largeItemBytes: fc.integer({ min: 60, max: 400 }),
      pieceBytes: fc.constant(16),
    });
    fc.assert(
      fc.property(items, indent, sizes, (list, space, s) => {
        const text = JSON.stringify({ kind: 'List', items: list }, null, space);
        expectSame(stream(text, WHOLE, s), whole(text));
      }),
      { numRuns: 800 },
    );
  });

  it('cuts batches ahead up to the end of a chunk and across it, only between items (property)', () => {
    // Strings long enough to cross chunks and batches, with escaped quotes and runs of backslashes
    // before quotes; nested arrays of objects whose `},{` look like the end of an item.
    const unit = fc.constantFrom('a', ' ', '"', '\\', '\\"', '\\\\"', '},{', '}]', 'é', '\n');
    const text = fc.oneof(
      fc.string({ unit, maxLength: 6 }),
      fc.string({ unit, minLength: 40, maxLength: 300 }),
    );
    const entry = fc.oneof(
      fc.record({ s: text }),
      fc.record({
        list: fc.array(fc.record({ a: text, b: fc.array(text, { maxLength: 2 }) }), { maxLength: 3 }),
      }),
    );
    const items = fc.array(entry, { maxLength: 14 });
    const sizes = fc.record({
      batchBytes: fc.integer({ min: 1, max: 400 }),
      largeItemBytes: fc.integer({ min: 60, max: 2000 }),
      pieceBytes: fc.constant(16),
    });
    fc.assert(
      fc.property(items, indent, sizes, fc.integer({ min: 1, max: 700 }), (list, space, s, chunk) => {
        const json = JSON.stringify({ kind: 'List', items: list }, null, space);
        expectSame(stream(json, chunk, s), whole(json));
      }),
      { numRuns: 600 },
    );
  });

  it('hands over the items that end in a chunk before the next chunk, in a batch cut ahead', () => {
    const list = Array.from({ length: 6 }, (_, k) => ({ name: `item-${k}`, data: { s: 'x'.repeat(40) } }));
    const text = Buffer.from(JSON.stringify({ kind: 'List', items: list }, null, 4));
    const got: unknown[] = [];
    const reader = new JsonItemsReader((batch) => got.push(...batch));
    // Cut inside the fourth item: three whole items lie before, far fewer bytes than a batch.
    const cut = text.indexOf('item-3');
    reader.write(text.subarray(0, cut));
    expect(got).toEqual(list.slice(0, 3));
    reader.write(text.subarray(cut));
    reader.end();
    expect(got).toEqual(list);
  });

  it('reads text whose nested objects close at the column of the item', () => {
    // Hand-indented: each `}` stands at the items' column, so the column says nothing and JSON.parse decides.
    const text = [
      '{"items": [',
      '  {',
      '  "a": [',
      '  {',
      '  "b": 1',
      '  },',
      '  {',
      '  "c": "},{"',
      '  }',
      '  ]',
      '  },',
      '  {',
      '  "d": 3',
      '  }',
      ']}',
    ].join('\n');
    for (const batchBytes of [1, 8, 30, 1000])
      for (const chunk of [1, 7, 20, 45, WHOLE])
        expectSame(stream(text, chunk, { ...tiny, batchBytes, largeItemBytes: 1000 }), whole(text));
  });

  it('never takes an item larger than largeItemBytes into a batch cut ahead', () => {
    const small = { a: 1 };
    const big = { spec: { config: { data: 'x'.repeat(300) } } };
    const text = JSON.stringify({ items: [small, small, small, big, small] }, null, 1);
    const made: string[] = [];
    const items: unknown[] = [];
    const reader = new JsonItemsReader(
      (batch) => items.push(...batch),
      { batchBytes: 20, largeItemBytes: 60, pieceBytes: 16 },
      {
        paths: new Set(['spec.config']),
        make: (bytes) => {
          made.push(bytes.toString());
          return 'deferred';
        },
      },
    );
    reader.write(Buffer.from(text));
    reader.end();
    expect(made).toHaveLength(1);
    expect(items).toEqual([small, small, small, { spec: { config: 'deferred' } }, small]);
  });

  it('keeps the last of duplicate keys inside items, and an own __proto__ key', () => {
    const text = `{"items": [{"a": 1, "b": 2, "a": 3}, {"__proto__": {"x": 1}, "big": "${'y'.repeat(200)}"}]}`;
    for (const sizes of [{}, tiny]) {
      const { items } = stream(text, 7, sizes);
      expect(JSON.stringify(items)).toBe(JSON.stringify(JSON.parse(text).items));
      const second = items[1] as Record<string, unknown>;
      expect(Object.getPrototypeOf(second)).toBe(Object.prototype);
      expect(Object.keys(second)).toEqual(['__proto__', 'big']);
    }
  });

  it('decodes characters split between chunks', () => {
    const text = JSON.stringify({ items: [{ name: 'héllo ☃ 😀', long: 'ü'.repeat(100) }] });
    expectSame(stream(text, 1, tiny), whole(text));
  });

  it('skips a byte order mark, as the whole-text reader does', () => {
    const text = '{"items": [{"a": 1}]}';
    expect(stream(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]), 64).items).toEqual([
      { a: 1 },
    ]);
  });

  it.each([
    ['a second items key', '{"items": [{"a": 1}], "items": []}'],
    ['items that are not objects', '{"items": [1, 2]}'],
    ['items that are not an array', '{"items": {"a": 1}}'],
    ['no items', '{"kind": "List"}'],
    ['a top-level array', '[{"a": 1}]'],
    ['a trailing comma', '{"items": [{"a": 1},]}'],
    ['text after the object', '{"items": []} x'],
    ['a truncated file', '{"items": [{"a": 1}'],
    ['an empty file', ''],
    ['an item that is not an object, between objects', '{"items": [{"a": 1}, 2, {"b": 3}]}'],
  ])('gives up on %s', (_what, text) => {
    expect(() => stream(text, 3, tiny)).toThrow(NotStreamable);
    expect(() => stream(text, WHOLE, { ...tiny, batchBytes: 1 })).toThrow(NotStreamable);
  });
});

describe('parseLarge', () => {
  it('builds what JSON.parse builds, from small pieces', () => {
    fc.assert(
      fc.property(
        fc.jsonValue({ maxDepth: 5 }),
        indent,
        fc.integer({ min: 2, max: 40 }),
        (value, space, piece) => {
          const text = JSON.stringify(value, null, space);
          const bytes = Buffer.from(text);
          expect(JSON.stringify(parseLarge(bytes, 0, bytes.length, piece))).toBe(
            JSON.stringify(JSON.parse(text)),
          );
        },
      ),
      { numRuns: 500 },
    );
  });

  it.each([
    ['mismatched brackets', '{"a": [1, 2}]'],
    ['a missing colon', '{"a" 1, "b": 2}'],
    ['two values in a row', '[1 2, 3, 4, 5]'],
    ['an object key that is not a string', '{1: 2, "b": 3}'],
  ])('gives up on %s', (_what, text) => {
    const bytes = Buffer.from(text);
    expect(() => parseLarge(bytes, 0, bytes.length, 2)).toThrow(NotStreamable);
  });
});
