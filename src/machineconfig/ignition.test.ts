import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Budget } from '../model/budget.js';
import { InputError } from '../model/errors.js';
import { canonicalJson, normalizeIgnition } from './ignition.js';
import { diffText } from './text.js';

/**
 * The recursive definition the iterative walk replaced (fine for the small trees fast-check makes):
 * empty values dropped, keys in sorted order (integer-like keys too, which a plain object would move
 * to the front).
 */
function reference(v: unknown): string | undefined {
  if (v === null || v === undefined) return undefined;
  if (Array.isArray(v)) {
    const items = v.map(reference).filter((x) => x !== undefined);
    return items.length === 0 ? undefined : `[${items.join(',')}]`;
  }
  if (typeof v === 'object') {
    const parts = Object.keys(v)
      .sort()
      .flatMap((k) => {
        const x = reference((v as Record<string, unknown>)[k]);
        return x === undefined ? [] : [`${JSON.stringify(k)}:${x}`];
      });
    return parts.length === 0 ? undefined : `{${parts.join(',')}}`;
  }
  return JSON.stringify(v);
}

function nested(depth: number): unknown {
  let v: unknown = [1];
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}

function overLimit(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (err instanceof InputError) return err.message;
    throw err;
  }
  return 'no error';
}

const ctx = (budget: Budget) => ({
  file: 'mc.yaml',
  at: 'spec.config',
  maxFileBytes: 64 * 1024 * 1024,
  budget,
});

describe('canonicalJson (the iterative walk of untrusted configs)', () => {
  it('gives what the recursive definition gives', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (v) => canonicalJson(v) === reference(v)),
      {
        numRuns: 500,
      },
    );
  });

  it('walks 200,000 levels without the call stack when the depth limit allows it', () => {
    const budget = new Budget({ treeDepth: 1_000_000 });
    expect(canonicalJson(nested(200_000), { budget })?.length).toBe(200_000 * 2 + 3);
  });

  it('stops at the depth limit with the flag named', () => {
    expect(overLimit(() => canonicalJson(nested(600), { file: 'deep.json' }))).toMatch(
      /^deep\.json: over the nesting depth limit of 512 .*--max-tree-depth/,
    );
  });

  it('counts aliased nodes each time they are used (a billion laughs)', () => {
    let v: unknown = ['lol', 'lol', 'lol', 'lol', 'lol', 'lol', 'lol', 'lol', 'lol', 'lol'];
    for (let i = 0; i < 9; i++) v = Array(10).fill(v);
    const budget = new Budget({ treeNodes: 100_000 });
    expect(overLimit(() => canonicalJson(v, { budget, file: 'laughs.yaml' }))).toContain('--max-tree-nodes');
  });

  it('refuses a config that contains itself', () => {
    const a: Record<string, unknown> = { x: 1 };
    a.self = { again: a };
    expect(overLimit(() => canonicalJson(a, { file: 'cycle.yaml' }))).toContain('alias cycle');
    // The same object twice side by side is a repeat, not a cycle.
    const shared = { k: 1 };
    expect(canonicalJson({ a: shared, b: shared })).toBe('{"a":{"k":1},"b":{"k":1}}');
  });
});

describe('normalizeIgnition with hostile section names', () => {
  it('keeps sections named after Object.prototype members as other sections', () => {
    const n = normalizeIgnition(
      { ignition: { version: '3.2.0' }, constructor: { a: 1 }, toString: [2], __proto__x: 3 },
      ctx(new Budget()),
    );
    expect([...n.other.keys()].sort()).toEqual(['__proto__x', 'constructor', 'toString']);
  });
});

describe('the data: URL budget', () => {
  const gz = (mib: number) =>
    `data:;base64,${gzipSync(Buffer.alloc(mib * 1024 * 1024), { level: 9 }).toString('base64')}`;
  const config = (n: number, mib: number) => ({
    ignition: { version: '3.2.0' },
    storage: {
      files: Array.from({ length: n }, (_, i) => ({
        path: `/f${i}`,
        contents: { source: gz(mib), compression: 'gzip' },
      })),
    },
  });

  it('stops one config at its per-config limit, naming --max-data-url', () => {
    const budget = new Budget({ dataUrlBytesPerConfig: 10 * 1024 * 1024 });
    expect(overLimit(() => normalizeIgnition(config(4, 3), ctx(budget)))).toContain('--max-data-url ');
    expect(
      normalizeIgnition(config(3, 3), ctx(new Budget({ dataUrlBytesPerConfig: 10 * 1024 * 1024 }))).storage
        .size,
    ).toBe(3);
  });

  it('stops the run at its total over several configs, naming --max-data-url-total', () => {
    const budget = new Budget({ dataUrlBytesTotal: 10 * 1024 * 1024 });
    normalizeIgnition(config(2, 3), ctx(budget));
    expect(overLimit(() => normalizeIgnition(config(2, 3), ctx(budget)))).toContain('--max-data-url-total');
  });
});

describe('the run-wide text-diff time', () => {
  it('charges each diff and ends the run once spent, naming --max-diff-time', () => {
    const budget = new Budget({ textDiffMillis: 50 });
    const clock = { budget, file: 'b.yaml' };
    expect(diffText('a\n', 'b\n', undefined, clock).hunks).toContain('+b');
    budget.chargeDiffMillis(50);
    expect(overLimit(() => diffText('a\n', 'b\n', undefined, clock))).toMatch(/^b\.yaml: .*--max-diff-time/);
  });
});
