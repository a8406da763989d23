/**
 * The component sentence of `atlevel stats` (text and HTML): the unchanged components that matter for
 * the race, machine-config-operator and the OS image, are named; the others are not.
 */
import { describe, expect, it } from 'vitest';
import { statsCsv } from '../../src/stats/csv.js';
import { statsHtml } from '../../src/stats/html.js';
import type { ComponentRow, StatsResult } from '../../src/stats/index.js';
import { componentSentence, duration, statsText, unchangedThatMatters } from '../../src/stats/text.js';

const RACE = 'master-pool-updated-before-cvo-complete';
const row = (
  fix: ComponentRow['fix'],
  runs: number,
  race: number,
  unchanged: string,
  changed = 'pod',
): ComponentRow => ({
  changed,
  unchanged,
  fix,
  runs,
  race,
  notChecked: 0,
  holdsFull: runs - race,
  holdsPartial: 0,
  holdsThin: 0,
  holdsCoverageUnknown: 0,
  checked: runs,
  rate: runs === 0 ? null : race / runs,
});

describe('the component sentence', () => {
  it('names machine-config-operator and the OS image among the unchanged, and only them', () => {
    const unchanged =
      'baremetal-runtimecfg+machine-config-operator+machine-os-content+machine-os-content-extensions';
    expect(componentSentence([row('absent', 12, 5, unchanged), row('present', 9, 0, unchanged)], RACE)).toBe(
      'pod image changed, machine-config-operator and OS image (machine-os-content) unchanged → race in 5 of 12 runs before the fix, 0 of 9 after',
    );
  });

  it('says only the one that stayed put, and nothing when neither did', () => {
    expect(unchangedThatMatters('machine-config-operator')).toBe('machine-config-operator');
    expect(unchangedThatMatters('baremetal-runtimecfg+rhel-coreos')).toBe('OS image (rhel-coreos)');
    expect(unchangedThatMatters('baremetal-runtimecfg')).toBe('');
    expect(unchangedThatMatters('unknown')).toBe('');
    expect(
      componentSentence([row('absent', 1, 1, 'baremetal-runtimecfg', 'machine-os-content+pod')], RACE),
    ).toBe('machine-os-content, pod images changed → race in 1 of 1 run before the fix');
    expect(componentSentence([row('unknown', 3, 0, 'unknown', 'unknown')], 'update-completed')).toBe(
      'no release info to name the changed images → update-completed in 0 of 3 runs with no rendered configs to tell',
    );
  });

  it('counts only the runs where the rule was checked, and says how many were not', () => {
    const unchecked = (fix: ComponentRow['fix'], runs: number, race: number, notChecked: number) => ({
      ...row(fix, runs, race, 'machine-config-operator'),
      notChecked,
      holdsFull: runs - race - notChecked,
      checked: runs - notChecked,
      rate: runs === notChecked ? null : race / (runs - notChecked),
    });
    expect(componentSentence([unchecked('absent', 2, 0, 2), unchecked('present', 6, 0, 4)], RACE)).toBe(
      'pod image changed, machine-config-operator unchanged → race in no checked run of 2 before the fix, 0 of 2 runs after (4 not checked)',
    );
    expect(componentSentence([unchecked('absent', 5, 3, 1)], RACE)).toBe(
      'pod image changed, machine-config-operator unchanged → race in 3 of 4 runs before the fix (1 not checked)',
    );
  });

  it('--operators shows in the HTML page too, every operator, latest first', () => {
    const p = (p50: number) => ({ n: 3, min: p50, p50, p90: p50, p99: p50, max: p50 });
    const ops = [
      { name: 'etcd', ...p(60_000) },
      { name: 'machine-config', ...p(2_400_000) },
    ];
    const html = statsHtml(result({ operatorLevelMs: ops }));
    expect(html).toContain('<h2>Level reports after the update started</h2>');
    expect(html.indexOf('>machine-config<')).toBeGreaterThan(-1);
    expect(html.indexOf('>machine-config<')).toBeLessThan(html.indexOf('>etcd<'));
    expect(statsHtml(result())).not.toContain('Level reports after the update started');
  });

  it('the HTML cells count as the sentence does: out of the checked runs, a column for runs without configs', () => {
    const none = {
      ...row('unknown', 2, 0, 'unknown', 'unknown'),
      notChecked: 2,
      holdsFull: 0,
      checked: 0,
      rate: null,
    };
    const html = statsHtml(result({ components: [none] }));
    expect(html).toContain('<th>no rendered configs to tell</th>');
    expect(html).toContain(
      '<td class="n">no checked run of 2<span class="cov">held: full 0, partial 0, thin 0, coverage unknown 0; not checked 2</span></td><td><svg class="bar" width="120" height="10" role="img" aria-label="not checked">',
    );
    expect(componentSentence([none], RACE)).toContain('no checked run of 2 with no rendered configs to tell');
    expect(statsHtml(result())).not.toContain('no rendered configs to tell');
  });

  it('the HTML table shows the same names, the full list on hover', () => {
    const html = statsHtml(result());
    expect(html).toContain(
      '<td title="baremetal-runtimecfg, machine-config-operator, machine-os-content">machine-config-operator and OS image (machine-os-content)</td>',
    );
  });
});

describe('the text report', () => {
  it('--width wraps the prose, hanging two columns in, and fits the tables: cells wrap in their columns', () => {
    const r = result({
      rates: [
        {
          rule: RACE,
          by: 'all',
          key: '',
          runs: 2,
          violated: 1,
          checked: 2,
          notChecked: 0,
          rate: 0.5,
          holdsFull: 1,
          holdsPartial: 0,
          holdsThin: 0,
          holdsCoverageUnknown: 0,
        },
      ],
    });
    const wide = statsText(r);
    const narrow = statsText(r, { width: 60 });
    const sentence = wide.split('\n').find((l) => l.includes('→ race in'));
    expect(sentence?.length).toBeGreaterThan(60);
    const row = wide.split('\n').find((l) => l.startsWith(`  ${RACE}`));
    expect(row?.length).toBeGreaterThan(60);
    const lines = narrow.split('\n');
    // Every line fits, tables included (issue 42: stats --width 60 printed 140-column lines).
    for (const l of lines) expect(l.length, l).toBeLessThanOrEqual(60);
    // The rule's row keeps its columns: its figures on its first line, its name continued below.
    const at = lines.findIndex((l) => l.startsWith(`  ${RACE.slice(0, 8)}`));
    expect(lines[at]).toMatch(/ {2}1 {2,}2 {2,}50(\.0)?% {2,}0$/);
    expect(lines[at + 1]).toMatch(/^ {2}\S/);
    // The sentence is cut into lines that hang under its indent.
    const sentenceAt = lines.findIndex((l) => l.startsWith('  pod image changed'));
    expect(lines[sentenceAt + 1]).toMatch(/^ {4}\S/);
    // The name, read down its column, is whole.
    const column = lines.slice(at, at + 4).map((l) => l.slice(2).split(/ {2,}/)[0] ?? '');
    expect(column.join('').startsWith(RACE)).toBe(true);
    // Nothing is lost: the same characters, once spaces and line breaks are set aside.
    const chars = (t: string) => [...t.replace(/\s+/g, '')].sort().join('');
    expect(chars(narrow)).toBe(chars(wide));
  });

  it('holds on part of what the rule judges are counted apart from full holds, at any width; all full, the table is as before', () => {
    const rate = (holdsThin: number, holdsCoverageUnknown: number) => ({
      rule: RACE,
      by: 'all' as const,
      key: 'all',
      runs: 40,
      violated: 0,
      checked: 40,
      notChecked: 0,
      rate: 0,
      holdsFull: 40 - holdsThin - holdsCoverageUnknown,
      holdsPartial: 0,
      holdsThin,
      holdsCoverageUnknown,
    });
    const thin = statsText(result({ rates: [rate(3, 2)] }));
    expect(thin).toMatch(new RegExp(`${RACE} +0 +40 +0\\.0% +0\\n`));
    expect(thin).toContain('HOLDS BY COVERAGE');
    expect(thin).toMatch(/rule +holds +full +partial +thin +coverage unknown\n/);
    expect(thin).toMatch(new RegExp(`${RACE} +40 +35 +0 +3 +2\\n`));
    expect(thin).toContain('under half (thin');
    for (const l of statsText(result({ rates: [rate(3, 2)] }), { width: 60 }).split('\n'))
      expect(l.length, l).toBeLessThanOrEqual(60);
    const full = statsText(result({ rates: [rate(0, 0)] }));
    expect(full).toMatch(new RegExp(`${RACE} +0 +40 +0\\.0% +0\\n`));
    expect(full).not.toContain('HOLDS BY COVERAGE');
    // The race's sentence says the thin holds apart: they are no evidence the race was absent.
    const sentence = componentSentence(
      [{ ...row('absent', 5, 1, 'machine-config-operator'), holdsFull: 2, holdsThin: 2 }],
      RACE,
    );
    expect(sentence).toContain('race in 1 of 5 runs before the fix (2 held on too little)');
  });

  it('store text reaches the terminal without its control characters', () => {
    const text = statsText(
      result({
        ingestErrors: 1,
        errors: [
          { source: 'runs/\u001b]0;owned\u0007x', error: 'bad \u009b2J', at: 0 },
        ] as StatsResult['errors'],
      }),
    );
    expect(text).toContain('runs/?]0;owned?x: bad ?2J');
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  });
});

describe('a rate', () => {
  const rate = (rule: string, violated: number, checked: number, notChecked = 0) => ({
    rule,
    by: 'all' as const,
    key: 'all',
    runs: checked + notChecked,
    violated,
    checked,
    notChecked,
    rate: checked === 0 ? null : violated / checked,
    holdsFull: checked - violated,
    holdsPartial: 0,
    holdsThin: 0,
    holdsCoverageUnknown: 0,
  });
  const r = result({
    rates: [
      rate('a-one-in-twenty-thousand', 1, 20_000),
      rate('b-all-but-one-of-twenty-thousand', 19_999, 20_000),
      rate('c-one-of-three', 1, 3),
      rate('d-none-checked', 0, 0, 4),
      rate('e-every-run', 5, 5),
    ],
  });

  it('is never rounded onto 0% or 100%: a rule that broke once is not shown as never breaking', () => {
    const row = (rule: string) =>
      statsText(r)
        .split('\n')
        .find((l) => l.startsWith(`  ${rule}`)) ?? '';
    expect(row('a-one-in-twenty-thousand')).toMatch(/ 1 +20000 +<0\.1% +0$/);
    expect(row('b-all-but-one-of-twenty-thousand')).toMatch(/ 19999 +20000 +>99\.9% +0$/);
    expect(row('c-one-of-three')).toMatch(/ 1 +3 +33\.3% +0$/);
    // 0 of 0 checked is no rate at all, not 0%.
    expect(row('d-none-checked')).toMatch(/ 0 +0 +– +4$/);
    expect(row('e-every-run')).toMatch(/ 5 +5 +100\.0% +0$/);
  });

  it('in HTML, as text and as a bar: never an empty bar above 0 nor a full one under 1', () => {
    const html = statsHtml(r);
    expect(html).toContain('<td class="n">&lt;0.1%</td>');
    expect(html).toContain('aria-label="&lt;0.1%"');
    expect(html).toContain('aria-label="&gt;99.9%"');
    expect(html).not.toMatch(/aria-label="0\.0%"/);
    const fills = [
      ...html.matchAll(
        /aria-label="([^"]+)"><rect class="bg" width="120" height="10"\/><rect class="fg" width="(\d+)"/g,
      ),
    ].map((m) => [m[1], Number(m[2])]);
    expect(fills).toContainEqual(['&lt;0.1%', 1]);
    expect(fills).toContainEqual(['&gt;99.9%', 119]);
    expect(fills).toContainEqual(['100.0%', 120]);
  });
});

describe('a filter that keeps no run', () => {
  it('says no runs, not no violations, in text and HTML', () => {
    const none = result({ runs: 0, components: [] });
    const text = statsText(none);
    expect(text).toMatch(/RUNS BY SIGNATURE[^\n]*\n {2}no runs\n/);
    expect(text).not.toContain('no violations');
    expect(statsHtml(none)).toContain('<p class="lead">no runs</p>');
    expect(statsText(result())).toMatch(/RUNS BY SIGNATURE[^\n]*\n {2}no violations\n/);
  });
});

describe('a duration', () => {
  it('carries a rounded-up second into the minute, and tenths into the second', () => {
    expect(duration(2_399_600)).toBe('40m00s');
    expect(duration(59_600)).toBe('1m00s');
    expect(duration(3_599_600)).toBe('1h00m');
    expect(duration(9_960)).toBe('10s');
    expect(duration(-1_500)).toBe('-1.5s');
    expect(duration(762_000)).toBe('12m42s');
    expect(duration(7_500_000)).toBe('2h05m');
  });
});

describe('durations over too few runs for percentiles', () => {
  const two = result({
    levelGapMs: [{ name: 'master', n: 2, min: -1_500, p50: null, p90: null, p99: null, max: 762_000 }],
    source: 'detail',
    percentileBucketMs: null,
  });

  it('HTML shows min and max, a dash for each percentile, and says why', () => {
    const html = statsHtml(two);
    expect(html).toContain('<th>runs</th><th>min</th><th>p50</th><th>p90</th><th>p99</th><th>max</th>');
    expect(html).toContain(
      '<td class="n">2</td><td class="n">-1.5s</td><td class="n">–</td><td class="n">–</td><td class="n">–</td><td class="n">12m42s</td>',
    );
    expect(html).toContain('nearest-rank, each a value some run had; under 3 runs, only min and max');
  });

  it('CSV has min-ms and empty percentiles', () => {
    const csv = statsCsv(two).split('\r\n');
    for (const [m, v] of [
      ['n', '2'],
      ['min-ms', '-1500'],
      ['p50-ms', ''],
      ['p90-ms', ''],
      ['p99-ms', ''],
      ['max-ms', '762000'],
    ])
      expect(csv).toContain(`level-report-to-pool-finish,master,,,${m},${v}`);
  });
});

describe('the CSV table', () => {
  it('pool and operator names from the inputs reach the terminal without their control characters', () => {
    const p = { n: 1, min: 1000, p50: null, p90: null, p99: null, max: 1000 };
    const csv = statsCsv(
      result({
        levelGapMs: [{ name: 'wor\u001bker', ...p }],
        operatorLevelMs: [{ name: 'op\u009b2J\u202e', ...p }],
      }),
    );
    expect(csv).toContain('level-report-to-pool-finish,wor?ker,');
    expect(csv).toContain('operator-level-since-start,op?2J?,');
    expect(csv.replace(/\r\n/g, '')).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e]/);
  });
});

function result(over: Partial<StatsResult> = {}): StatsResult {
  return {
    store: 's',
    filter: {},
    runs: 1,
    firstRun: null,
    lastRun: null,
    ingestErrors: 0,
    errors: [],
    rates: [],
    signatures: [],
    earlyLevels: [],
    raceRule: RACE,
    components: [row('absent', 2, 2, 'baremetal-runtimecfg+machine-config-operator+machine-os-content')],
    updateMs: { n: 0, min: null, p50: null, p90: null, p99: null, max: null },
    levelGapMs: [],
    rolloutMs: [],
    operatorLevelMs: [],
    source: 'summary',
    filterMisses: [],
    percentileBucketMs: 1000,
    ...over,
  };
}
