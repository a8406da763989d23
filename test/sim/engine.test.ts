import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Engine, EventHeap, type SimEvent } from '../../src/sim/engine.js';
import { lognormal, Rng, uniform } from '../../src/sim/rng.js';

const actor = { id: 0, name: 'a', race: false };
const ev = (at: number, seq: number): SimEvent => ({ at, seq, actor, label: 'x', fn: () => undefined });

describe('EventHeap', () => {
  it('pops in (time, sequence) order for any insertion order', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 50 }), { maxLength: 200 }), (times) => {
        const heap = new EventHeap();
        for (const [seq, t] of times.entries()) heap.push(ev(t, seq));
        const out: SimEvent[] = [];
        for (let e = heap.pop(); e; e = heap.pop()) out.push(e);
        const want = times.map((t, seq) => ({ t, seq })).sort((a, b) => a.t - b.t || a.seq - b.seq);
        expect(out.map((e) => [e.at, e.seq])).toEqual(want.map((w) => [w.t, w.seq]));
      }),
    );
  });

  it('removeAt keeps the heap ordered', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 20 }), { minLength: 1, maxLength: 60 }),
        fc.nat(),
        (times, pick) => {
          const heap = new EventHeap();
          for (const [seq, t] of times.entries()) heap.push(ev(t, seq));
          const i = pick % heap.size;
          const removed = heap.removeAt(i) as SimEvent;
          const rest: SimEvent[] = [];
          for (let e = heap.pop(); e; e = heap.pop()) rest.push(e);
          expect(rest).toHaveLength(times.length - 1);
          expect(rest.some((e) => e.seq === removed.seq)).toBe(false);
          for (let k = 1; k < rest.length; k++) {
            const a = rest[k - 1] as SimEvent;
            const b = rest[k] as SimEvent;
            expect(a.at < b.at || (a.at === b.at && a.seq < b.seq)).toBe(true);
          }
        },
      ),
    );
  });
});

describe('Engine', () => {
  it('runs events at their virtual time, ties in scheduling order, and never goes back in time', () => {
    const engine = new Engine(1);
    const a = engine.actor('a');
    const seen: string[] = [];
    engine.schedule(500, a, 'late', () => seen.push(`late@${engine.now}`));
    engine.schedule(100, a, 'first', () => {
      seen.push(`first@${engine.now}`);
      engine.schedule(0, a, 'same-time', () => seen.push(`same@${engine.now}`));
    });
    engine.schedule(100, a, 'second', () => seen.push(`second@${engine.now}`));
    engine.run(10_000);
    expect(seen).toEqual(['first@100', 'second@100', 'same@100', 'late@500']);
  });

  it('stops at the limit', () => {
    const engine = new Engine(1);
    const a = engine.actor('a');
    let fired = 0;
    engine.schedule(50, a, 'x', () => fired++);
    engine.schedule(5000, a, 'y', () => fired++);
    engine.run(1000);
    expect(fired).toBe(1);
    expect(engine.now).toBe(1000);
  });
});

describe('Rng', () => {
  it('is a pure function of the seed', () => {
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const a = new Rng(seed);
        const b = new Rng(seed);
        for (let i = 0; i < 20; i++) expect(a.nextU32()).toBe(b.nextU32());
      }),
    );
  });

  it('different seeds give different streams', () => {
    expect(new Rng(1).nextU32()).not.toBe(new Rng(2).nextU32());
  });

  it('draws within the bounds of a distribution', () => {
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const rng = new Rng(seed);
        for (let i = 0; i < 50; i++) {
          const u = rng.sample(uniform(10, 20));
          expect(u).toBeGreaterThanOrEqual(10);
          expect(u).toBeLessThanOrEqual(20);
          const l = rng.sample(lognormal(1000, 1, 200, 3000));
          expect(l).toBeGreaterThanOrEqual(200);
          expect(l).toBeLessThanOrEqual(3000);
          expect(Number.isInteger(l)).toBe(true);
        }
      }),
    );
  });

  it('a log-normal draw has its median where it says', () => {
    const rng = new Rng(42);
    const xs = Array.from({ length: 4001 }, () => rng.sample(lognormal(5000, 0.5))).sort((a, b) => a - b);
    const median = xs[2000] as number;
    expect(median).toBeGreaterThan(4700);
    expect(median).toBeLessThan(5300);
  });
});
