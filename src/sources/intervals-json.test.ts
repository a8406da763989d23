import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Interner } from '../model/index.js';
import { parseIntervalItem, plainItem } from './intervals-json.js';

const item = (locatorKeys: unknown, annotations: unknown, extra: Record<string, unknown> = {}) => ({
  level: 'Info',
  from: '2021-11-03T03:23:09Z',
  to: '2021-11-03T03:23:10Z',
  locator: { type: 'ClusterOperator', keys: locatorKeys },
  message: { reason: 'R', humanMessage: 'h', annotations, ...extra },
});

const read = (raw: unknown, intern = new Interner()) =>
  parseIntervalItem(raw, 7, 'f.json', 'e2e-intervals', intern);

describe('parseIntervalItem: locator keys and annotations', () => {
  it('keeps string values, turns numbers and booleans into strings, drops the rest and __proto__', () => {
    const raw = JSON.parse(
      '{"level":"Info","from":"2021-11-03T03:23:09Z","locator":{"type":"Node","keys":{"node":"n1","n":3,"__proto__":{"x":1},"o":{}}},' +
        '"message":{"reason":"R","annotations":{"a":"x","b":true,"c":null,"__proto__":"p"}}}',
    );
    const i = read(raw);
    expect(i.locator).toEqual({ type: 'Node', keys: { node: 'n1', n: '3' } });
    expect(Object.keys(i.message.annotations)).toEqual(['a', 'b']);
    expect(i.message.annotations).toEqual({ a: 'x', b: 'true' });
    expect(i.ref).toEqual({ file: 'f.json', path: 'items[7]' });
  });

  it('adds the cause to the annotations unless they hold one, without changing the item', () => {
    const raw = item({ clusteroperator: 'dns' }, { condition: 'Degraded' }, { cause: 'because' });
    expect(read(raw).message.annotations).toEqual({ condition: 'Degraded', cause: 'because' });
    expect(raw.message.annotations).toEqual({ condition: 'Degraded' });
    const own = item({ clusteroperator: 'dns' }, { cause: 'mine' }, { cause: 'because' });
    expect(read(own).message.annotations).toEqual({ cause: 'mine' });
  });

  it('shares one locator and one annotations object between equal items, not the items’ own', () => {
    const intern = new Interner();
    const a = item({ clusteroperator: 'dns' }, { condition: 'Available', status: 'True' });
    const b = item({ clusteroperator: 'dns' }, { condition: 'Available', status: 'True' });
    const [x, y] = [read(a, intern), read(b, intern)];
    expect(x.locator).toBe(y.locator);
    expect(x.message.annotations).toBe(y.message.annotations);
    expect(x.message.annotations).not.toBe(a.message.annotations);
    expect(x.locator.keys).not.toBe(a.locator.keys);
  });

  it('reads any keys and annotations as the string-only copy would', () => {
    const value = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.object());
    const record = fc.dictionary(
      fc.oneof(fc.string(), fc.constantFrom('__proto__', '0', '10', 'cause')),
      value,
    );
    fc.assert(
      fc.property(record, record, fc.option(fc.string()), (keys, annotations, cause) => {
        const raw = JSON.parse(JSON.stringify(item(keys, annotations, cause === null ? {} : { cause })));
        const expected = (r: Record<string, unknown>) => {
          const out: Record<string, string> = {};
          for (const k of Object.keys(r)) {
            const v = r[k];
            if (k === '__proto__') continue;
            if (typeof v === 'string') out[k] = v;
            else if (typeof v === 'number' || typeof v === 'boolean') out[k] = String(v);
          }
          return out;
        };
        const i = read(raw);
        expect(JSON.stringify(i.locator.keys)).toBe(JSON.stringify(expected(raw.locator.keys)));
        const want = expected(raw.message.annotations);
        if (cause && want.cause === undefined) want.cause = cause;
        expect(JSON.stringify(i.message.annotations)).toBe(JSON.stringify(want));
      }),
    );
  });

  it("reads a ClusterVersion condition's own message, as the plain-item path does", () => {
    const raw = {
      level: 'Warning',
      from: '2021-11-03T03:28:27Z',
      to: '2021-11-03T03:28:27Z',
      locator: { type: 'ClusterVersion', keys: { clusterversion: 'version' } },
      message: {
        reason: '',
        cause: '',
        humanMessage: 'changed to Progressing=False: Completed: Cluster version is 4.10.0',
        annotations: { condition: 'Progressing', reason: 'Completed', status: 'False' },
      },
    };
    expect(read(raw).message.humanMessage).toBe('Cluster version is 4.10.0');
    expect(plainItem(raw)?.humanMessage).toBe('Cluster version is 4.10.0');
    // The transitional schema's structured message too.
    const { message, ...rest } = raw;
    expect(read({ ...rest, message: 'x', tempStructuredMessage: message }).message.humanMessage).toBe(
      'Cluster version is 4.10.0',
    );
  });

  it('names the item in an error', () => {
    expect(() => read({ level: 'Info', from: 'x' })).toThrow('items[7]: from: expected an RFC 3339 time');
    expect(() => read({ level: 'Info', from: '2021-11-03T03:23:09Z', locator: 3 })).toThrow(
      'items[7]: locator: expected a string or {type, keys}',
    );
  });
});
