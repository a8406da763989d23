/**
 * The simulator's only source of randomness: xoshiro128** seeded through splitmix32, so that a seed
 * names one run and nothing else (no Math.random, no clock) can change it.
 */

/** A latency or duration distribution, in milliseconds. */
export type Dist =
  | { readonly kind: 'const'; readonly ms: number }
  | { readonly kind: 'uniform'; readonly min: number; readonly max: number }
  | {
      readonly kind: 'lognormal';
      /** The median (e^mu); half the draws fall below it. */
      readonly median: number;
      /** The spread of ln(x); 0.25 is tight, 1 is wide. */
      readonly sigma: number;
      readonly min?: number;
      readonly max?: number;
    };

export const constant = (ms: number): Dist => ({ kind: 'const', ms });
export const uniform = (min: number, max: number): Dist => ({ kind: 'uniform', min, max });
export const lognormal = (median: number, sigma: number, min?: number, max?: number): Dist => ({
  kind: 'lognormal',
  median,
  sigma,
  ...(min !== undefined ? { min } : {}),
  ...(max !== undefined ? { max } : {}),
});

function splitmix32(state: number): [number, number] {
  const next = (state + 0x9e3779b9) | 0;
  let z = next;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return [next, (z ^ (z >>> 16)) >>> 0];
}

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  /** A second normal deviate from the last Box–Muller pair, kept to halve the cost of normals. */
  private spare: number | undefined;

  constructor(seed: number, stream = 0) {
    let s = (seed ^ Math.imul(stream + 1, 0x632be5ab)) | 0;
    let out: number;
    [s, out] = splitmix32(s);
    this.a = out;
    [s, out] = splitmix32(s);
    this.b = out;
    [s, out] = splitmix32(s);
    this.c = out;
    [s, out] = splitmix32(s);
    this.d = out;
    if ((this.a | this.b | this.c | this.d) === 0) this.a = 1;
  }

  /** Uniform 32-bit unsigned integer. */
  nextU32(): number {
    const result = Math.imul(rotl(Math.imul(this.b, 5), 7), 9) >>> 0;
    const t = this.b << 9;
    this.c ^= this.a;
    this.d ^= this.b;
    this.b ^= this.c;
    this.a ^= this.d;
    this.c ^= t;
    this.d = rotl(this.d, 11);
    return result;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.nextU32() / 4294967296;
  }

  /** Uniform integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  /** Standard normal deviate (Box–Muller). */
  normal(): number {
    if (this.spare !== undefined) {
      const s = this.spare;
      this.spare = undefined;
      return s;
    }
    let u = this.next();
    while (u === 0) u = this.next();
    const v = this.next();
    const r = Math.sqrt(-2 * Math.log(u));
    this.spare = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  }

  /** A draw from `dist`, rounded to whole milliseconds (virtual time is integral). */
  sample(dist: Dist): number {
    switch (dist.kind) {
      case 'const':
        return dist.ms;
      case 'uniform':
        return Math.round(dist.min + this.next() * (dist.max - dist.min));
      case 'lognormal': {
        let x = dist.median * Math.exp(dist.sigma * this.normal());
        if (dist.min !== undefined && x < dist.min) x = dist.min;
        if (dist.max !== undefined && x > dist.max) x = dist.max;
        return Math.round(x);
      }
    }
  }
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}
