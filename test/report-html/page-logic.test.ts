/** The page script's pure parts, tested in Node: time axis, the interval index, and row layout. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildReportData } from '../../src/report/html/index.js';
import {
  entryAt,
  FOCUS_GROUP,
  GROUP_HEIGHT,
  layoutEntries,
  ROW_HEIGHT,
  rowSearchText,
} from '../../src/report/html/page/layout.js';
import { clock, dateTime, duration, tickLabel, ticks } from '../../src/report/html/page/time-format.js';
import { TimelineIndex } from '../../src/report/html/page/timeline-index.js';
import {
  type ReportBar,
  type ReportMark,
  TONES,
  type Tone,
} from '../../src/report/html/report-data-types.js';
import { bugInput, T } from './inputs.js';

describe('time text', () => {
  it('prints UTC clocks, dates and durations', () => {
    expect(clock(T('03:23:09.856'))).toBe('03:23:09.856');
    expect(clock(T('03:23:09'))).toBe('03:23:09');
    expect(dateTime(T('03:28:35'))).toBe('2021-11-03 03:28:35Z');
    expect(duration(T('03:35:50') - T('03:28:35'))).toBe('7m15s');
    expect(duration(450)).toBe('450ms');
    expect(duration(1500)).toBe('1.5s');
    expect(duration(2 * 3600_000 + 5 * 60_000)).toBe('2h05m');
    expect(duration(3 * 86_400_000 + 4 * 3600_000)).toBe('3d04h');
  });

  it('picks round tick steps aligned to the clock, at least the asked distance apart', () => {
    const t = ticks(T('03:19:59.820'), T('03:39:00.036'), 1000, 90);
    expect(t.step).toBe(2 * 60_000);
    expect(t.at.map((x) => tickLabel(x, t.step))).toEqual([
      '03:20',
      '03:22',
      '03:24',
      '03:26',
      '03:28',
      '03:30',
      '03:32',
      '03:34',
      '03:36',
      '03:38',
    ]);
    const fine = ticks(T('03:23:09'), T('03:23:11'), 1000, 90);
    expect(fine.step).toBe(200);
    expect(tickLabel(fine.at[1] ?? 0, fine.step)).toBe('03:23:09.200');
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2e12 }),
        fc.integer({ min: 1, max: 4e9 }),
        fc.integer({ min: 200, max: 3000 }),
        (from, span, width) => {
          const r = ticks(from, from + span, width, 90);
          expect((r.step / span) * width).toBeGreaterThanOrEqual(90 - 1e-6);
          for (const x of r.at) {
            expect(x % r.step).toBe(0);
            expect(x).toBeGreaterThanOrEqual(from);
            expect(x).toBeLessThanOrEqual(from + span);
          }
        },
      ),
    );
  });
});

describe('TimelineIndex', () => {
  const barArb = fc.record({
    row: fc.integer({ min: 0, max: 4 }),
    from: fc.integer({ min: 0, max: 1000 }),
    length: fc.integer({ min: 1, max: 400 }),
    tone: fc.constantFrom(...TONES),
  });
  const toBars = (raw: { row: number; from: number; length: number; tone: Tone }[]): ReportBar[] =>
    raw.map((b) => ({
      row: b.row,
      from: b.from,
      to: b.from + b.length,
      tone: b.tone,
      label: 0,
      text: 0,
      file: 0,
      source: 0,
    }));
  const toMarks = (raw: { row: number; at: number }[]): ReportMark[] =>
    raw.map((m) => ({ row: m.row, at: m.at, kind: 'instant', tone: 'info', text: 0, file: 0, source: 0 }));

  it('finds exactly the bars and marks a brute-force scan finds, in time order', () => {
    fc.assert(
      fc.property(
        fc.array(barArb, { maxLength: 80 }),
        fc.array(fc.record({ row: fc.integer({ min: 0, max: 4 }), at: fc.integer({ min: 0, max: 1400 }) }), {
          maxLength: 40,
        }),
        fc.integer({ min: -100, max: 1400 }),
        fc.integer({ min: 0, max: 600 }),
        (rawBars, rawMarks, t0, width) => {
          const bars = toBars(rawBars);
          const marks = toMarks(rawMarks);
          const index = new TimelineIndex(5, bars, marks);
          const t1 = t0 + width;
          for (let row = 0; row < 5; row++) {
            TONES.forEach((tone, k) => {
              const got: number[] = [];
              index.barsIn(row, k, t0, t1, (id) => got.push(id));
              const want = bars
                .map((b, id) => ({ b, id }))
                .filter(({ b }) => b.row === row && b.tone === tone && b.from <= t1 && b.to >= t0)
                .sort((x, y) => x.b.from - y.b.from || x.id - y.id)
                .map(({ id }) => id);
              expect(got.map((id) => bars[id]?.from)).toEqual(want.map((id) => bars[id]?.from));
              expect(new Set(got)).toEqual(new Set(want));
            });
            const gotMarks: number[] = [];
            index.marksIn(row, t0, t1, (id) => gotMarks.push(id));
            const wantMarks = marks
              .map((m, id) => ({ m, id }))
              .filter(({ m }) => m.row === row && m.at >= t0 && m.at <= t1);
            expect(new Set(gotMarks)).toEqual(new Set(wantMarks.map(({ id }) => id)));
          }
        },
      ),
    );
  });

  it('hits the nearest mark first, else the worst-toned and then shortest bar', () => {
    const bars = toBars([
      { row: 0, from: 0, length: 1000, tone: 'ok' },
      { row: 0, from: 100, length: 500, tone: 'progress' },
      { row: 0, from: 200, length: 50, tone: 'progress' },
      { row: 0, from: 700, length: 50, tone: 'bad' },
    ]);
    const index = new TimelineIndex(1, bars, toMarks([{ row: 0, at: 400 }]));
    expect(index.hitTest(0, 220, 2)).toEqual({ kind: 'bar', id: 2 });
    expect(index.hitTest(0, 300, 2)).toEqual({ kind: 'bar', id: 1 });
    expect(index.hitTest(0, 401, 2)).toEqual({ kind: 'mark', id: 0 });
    expect(index.hitTest(0, 720, 2)).toEqual({ kind: 'bar', id: 3 });
    expect(index.hitTest(0, 900, 2)).toEqual({ kind: 'bar', id: 0 });
    expect(index.hitTest(0, 1200, 2)).toBeUndefined();
  });
});

describe('row layout', () => {
  const data = buildReportData(bugInput());
  const search = rowSearchText(data);

  it('lists every group and row, with offsets from their heights', () => {
    const layout = layoutEntries(data, search, { filter: '', collapsed: new Set(), focus: null });
    expect(layout.entries).toHaveLength(data.groups.length + data.rows.length);
    expect(layout.offsets[layout.entries.length]).toBe(
      data.groups.length * GROUP_HEIGHT + data.rows.length * ROW_HEIGHT,
    );
    expect(entryAt(layout, 0)).toBe(0);
    expect(entryAt(layout, GROUP_HEIGHT)).toBe(1);
    expect(entryAt(layout, GROUP_HEIGHT - 0.5)).toBe(0);
    expect(entryAt(layout, -1)).toBe(-1);
    expect(entryAt(layout, 1e9)).toBe(-1);
  });

  it('filters rows by substring, hiding groups left empty, and counts what a collapsed group holds', () => {
    const layout = layoutEntries(data, search, {
      filter: 'MASTER',
      collapsed: new Set(['Node']),
      focus: null,
    });
    const shown = layout.entries.map((e) =>
      e.kind === 'group'
        ? `[${e.group} ${e.count}${e.collapsed ? ' collapsed' : ''}]`
        : data.rows[e.row]?.key,
    );
    expect(shown).toEqual([
      '[MachineConfigPool 1]',
      'MachineConfigPool/master',
      '[MachineConfig 2]',
      'MachineConfig/rendered-master-78d48a9fbc8ba6a746040c11f8335d1a',
      'MachineConfig/rendered-master-ebc4fc8c7b6a155d86684204394e4930',
      '[Node 3 collapsed]',
      '[KubeEvent 1]',
      'KubeEvent/namespace/openshift-machine-config-operator machineconfigpool/master',
    ]);
  });

  it("pins a finding's rows in a group of their own at the top, whatever the filter", () => {
    const f = data.findings[0];
    const layout = layoutEntries(data, search, {
      filter: 'no such row',
      collapsed: new Set(),
      focus: f?.rows ?? [],
      focusLabel: 'Selected',
    });
    expect(layout.entries[0]).toEqual({
      kind: 'group',
      group: FOCUS_GROUP,
      label: 'Selected',
      count: 4,
      collapsed: false,
    });
    expect(
      layout.entries.slice(1).map((e) => (e.kind === 'row' ? [data.rows[e.row]?.key, e.pinned] : e.group)),
    ).toEqual([
      ['ClusterVersion/version', true],
      ['ClusterOperator/machine-config', true],
      ['MachineConfig/rendered-master-ebc4fc8c7b6a155d86684204394e4930', true],
      ['MachineConfigPool/master', true],
    ]);
  });
});
