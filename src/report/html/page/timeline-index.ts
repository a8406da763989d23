import { type ReportBar, type ReportMark, TONES, type Tone } from '../report-data-types.js';

const TONE_INDEX: Readonly<Record<Tone, number>> = { info: 0, ok: 1, warn: 2, progress: 3, bad: 4 };

export type Hit =
  | { readonly kind: 'bar'; readonly id: number }
  | { readonly kind: 'mark'; readonly id: number };

/**
 * Bars and marks by row, laid out flat in typed arrays so that drawing a frame touches only what is on
 * screen. Bars are bucketed by (row, tone) and sorted by start; a running maximum of their ends lets a
 * binary search find the first bar that can reach into the view, however long the bars before it are.
 */
export class TimelineIndex {
  private readonly barFrom: Float64Array;
  private readonly barTo: Float64Array;
  private readonly barMaxTo: Float64Array;
  private readonly barId: Int32Array;
  /** Start of bucket (row * TONES.length + tone); one extra entry marks the end. */
  private readonly barStart: Int32Array;
  private readonly markAt: Float64Array;
  private readonly markId: Int32Array;
  private readonly markStart: Int32Array;

  constructor(rowCount: number, bars: readonly ReportBar[], marks: readonly ReportMark[]) {
    const buckets = rowCount * TONES.length;
    this.barStart = new Int32Array(buckets + 1);
    const bucketOf = (b: ReportBar): number => b.row * TONES.length + TONE_INDEX[b.tone];
    for (const b of bars) this.barStart[bucketOf(b) + 1]! += 1;
    for (let i = 0; i < buckets; i++) this.barStart[i + 1]! += this.barStart[i]!;
    const fill = this.barStart.slice(0, buckets);
    this.barFrom = new Float64Array(bars.length);
    this.barTo = new Float64Array(bars.length);
    this.barMaxTo = new Float64Array(bars.length);
    this.barId = new Int32Array(bars.length);
    bars.forEach((b, id) => {
      const at = fill[bucketOf(b)]!++;
      this.barFrom[at] = b.from;
      this.barTo[at] = b.to;
      this.barId[at] = id;
    });
    for (let k = 0; k < buckets; k++) {
      sortRange(this.barFrom, [this.barTo], this.barId, this.barStart[k]!, this.barStart[k + 1]!);
      let max = Number.NEGATIVE_INFINITY;
      for (let i = this.barStart[k]!; i < this.barStart[k + 1]!; i++) {
        max = Math.max(max, this.barTo[i]!);
        this.barMaxTo[i] = max;
      }
    }

    this.markStart = new Int32Array(rowCount + 1);
    for (const m of marks) this.markStart[m.row + 1]! += 1;
    for (let i = 0; i < rowCount; i++) this.markStart[i + 1]! += this.markStart[i]!;
    const mfill = this.markStart.slice(0, rowCount);
    this.markAt = new Float64Array(marks.length);
    this.markId = new Int32Array(marks.length);
    marks.forEach((m, id) => {
      const at = mfill[m.row]!++;
      this.markAt[at] = m.at;
      this.markId[at] = id;
    });
    for (let r = 0; r < rowCount; r++)
      sortRange(this.markAt, [], this.markId, this.markStart[r]!, this.markStart[r + 1]!);
  }

  /** Calls `fn` for each bar of `row` with `tone` that overlaps [t0, t1], in order of start. */
  barsIn(
    row: number,
    tone: number,
    t0: number,
    t1: number,
    fn: (id: number, from: number, to: number) => void,
  ): void {
    const k = row * TONES.length + tone;
    let lo = this.barStart[k]!;
    const end = this.barStart[k + 1]!;
    let hi = end;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.barMaxTo[mid]! < t0) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < end; i++) {
      const from = this.barFrom[i]!;
      if (from > t1) break;
      const to = this.barTo[i]!;
      if (to >= t0) fn(this.barId[i]!, from, to);
    }
  }

  /** Calls `fn` for each mark of `row` in [t0, t1], in time order. */
  /** Whether the row holds any bar or mark at all, at any time. */
  hasData(row: number): boolean {
    const t = TONES.length;
    return (
      (this.barStart[(row + 1) * t] ?? 0) > (this.barStart[row * t] ?? 0) ||
      (this.markStart[row + 1] ?? 0) > (this.markStart[row] ?? 0)
    );
  }

  marksIn(row: number, t0: number, t1: number, fn: (id: number, at: number) => void): void {
    let lo = this.markStart[row]!;
    const end = this.markStart[row + 1]!;
    let hi = end;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.markAt[mid]! < t0) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < end; i++) {
      const at = this.markAt[i]!;
      if (at > t1) break;
      fn(this.markId[i]!, at);
    }
  }

  /**
   * What is under the pointer at time `t` on `row`, within `tolerance` ms: the nearest mark (they are
   * drawn on top), else the bar of the worst tone, the shortest of those (the most specific).
   */
  hitTest(row: number, t: number, tolerance: number): Hit | undefined {
    let mark = -1;
    let best = Number.POSITIVE_INFINITY;
    this.marksIn(row, t - tolerance, t + tolerance, (id, at) => {
      const d = Math.abs(at - t);
      if (d < best) {
        best = d;
        mark = id;
      }
    });
    if (mark !== -1) return { kind: 'mark', id: mark };
    for (let tone = TONES.length - 1; tone >= 0; tone--) {
      let bar = -1;
      let shortest = Number.POSITIVE_INFINITY;
      this.barsIn(row, tone, t - tolerance, t + tolerance, (id, from, to) => {
        if (to - from < shortest) {
          shortest = to - from;
          bar = id;
        }
      });
      if (bar !== -1) return { kind: 'bar', id: bar };
    }
    return undefined;
  }
}

/** Sort [start, end) by `keys`, moving `ids` and `also` with them; skipped when already in order. */
function sortRange(
  keys: Float64Array,
  also: readonly Float64Array[],
  ids: Int32Array,
  start: number,
  end: number,
): void {
  let sorted = true;
  for (let i = start + 1; i < end && sorted; i++) if (keys[i - 1]! > keys[i]!) sorted = false;
  if (sorted) return;
  const order = Array.from({ length: end - start }, (_, i) => start + i).sort(
    (a, b) => keys[a]! - keys[b]! || ids[a]! - ids[b]!,
  );
  const k = order.map((i) => keys[i]!);
  const id = order.map((i) => ids[i]!);
  const rest = also.map((arr) => order.map((i) => arr[i]!));
  for (let i = 0; i < order.length; i++) {
    keys[start + i] = k[i]!;
    ids[start + i] = id[i]!;
    rest.forEach((vals, j) => {
      also[j]![start + i] = vals[i]!;
    });
  }
}
