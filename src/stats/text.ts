/** `atlevel stats` as text: the tables a terminal shows. It formats the StatsResult; it computes nothing new. */
import { terminalSafe } from '../model/index.js';
import { isOsImageTag } from '../release/index.js';
import { table as alignedRows, fittedTable, type TextSettings, wrap } from '../report/index.js';
import {
  type ComponentRow,
  type FilterMiss,
  type NamedPercentiles,
  PERCENTILE_MIN_RUNS,
  type Percentiles,
  type RateRow,
  type StatsResult,
} from './query.js';

export function pct(n: number, of: number): string {
  return of === 0 ? '–' : percent(n / of);
}

/**
 * A rate as a percentage to a tenth, never rounded onto 0 or 100: 1 violation in 20,000 runs is
 * `<0.1%`, not `0.0%` (which reads as never), and 19,999 in 20,000 is `>99.9%`, not `100.0%`.
 */
export function percent(rate: number): string {
  const text = (100 * rate).toFixed(1);
  if (rate > 0 && text === '0.0') return '<0.1%';
  if (rate < 1 && text === '100.0') return '>99.9%';
  return `${text}%`;
}

export function duration(ms: number | null): string {
  if (ms === null) return '–';
  const sign = ms < 0 ? '-' : '';
  const abs = Math.abs(ms) / 1000;
  // Tenths under 10 s, as long as they round to under 10.0 (9.96 s is 10s, not 10.0s).
  if (abs < 9.95) return `${sign}${abs.toFixed(1)}s`;
  // Rounded to whole seconds before it is split, so that 59.6 s carries into the minute (1m00s)
  // instead of printing as 60s, or 39m59.6s as 39m60s.
  const total = Math.round(abs);
  if (total < 60) return `${sign}${total}s`;
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return h > 0 ? `${sign}${h}h${String(m).padStart(2, '0')}m` : `${sign}${m}m${String(s).padStart(2, '0')}s`;
}

export function day(ms: number | null): string {
  return ms === null ? '–' : new Date(ms).toISOString().slice(0, 10);
}

/** Table lines, which the prose wrapping leaves alone: a table fits itself (fittedTable). */
const TABLE_LINE = '\u0000';

/** A table, fitted to `width` when there is one (--width, or the terminal's): its cells wrap in their columns. */
function table(
  head: readonly string[],
  rows: readonly (readonly string[])[],
  right: ReadonlySet<number>,
  width: number | undefined,
): string[] {
  const lines =
    width === undefined
      ? alignedRows([head, ...rows], 2, right)
      : fittedTable([head, ...rows], width, 2, right);
  return lines.map((l) => TABLE_LINE + l.trimEnd());
}

/** `pod` → `pod`; `a+b` → `a, b`; `` → `nothing`. */
export function componentList(key: string): string {
  if (key === 'unknown') return 'unknown (no release info)';
  return key === '' ? 'nothing' : key.split('+').join(', ');
}

const MCO = 'machine-config-operator';

/**
 * Of the unchanged config-reaching components, the two whose staying put makes the race possible:
 * machine-config-operator (an operator that changes rolls out itself before it can report level) and
 * the OS image (a new one makes every node reboot into it, which the update waits for). The others
 * (baremetal-runtimecfg, the OS extensions) are left out of the sentence; the table keeps them all.
 * `pod+machine-config-operator+machine-os-content` → `machine-config-operator and OS image (machine-os-content)`.
 */
export function unchangedThatMatters(key: string): string {
  if (key === '' || key === 'unknown') return '';
  const names = key.split('+');
  const os = names.filter((n) => isOsImageTag(n) && !n.endsWith('-extensions'));
  const parts = [
    ...(names.includes(MCO) ? [MCO] : []),
    ...(os.length > 0 ? [`OS image (${os.join(', ')})`] : []),
  ];
  return parts.join(' and ');
}

/**
 * `pod` → `pod image changed`; `a+b` → `a, b images changed`; `` → `nothing changed`. Runs without
 * release info are said to be so, never as if a component called "unknown" had changed.
 */
function changedImages(key: string): string {
  if (key === 'unknown') return 'no release info to name the changed images';
  if (key === '') return `${componentList(key)} changed`;
  return `${componentList(key)} image${key.includes('+') ? 's' : ''} changed`;
}

/**
 * The sentence of one component combination, in the form the issue asks for: "pod image changed,
 * machine-config-operator and OS image (machine-os-content) unchanged → race in N of M runs before the
 * fix, 0 of K after".
 */
export function componentSentence(rows: readonly ComponentRow[], rule: string): string {
  const first = rows[0];
  if (!first) return '';
  let said = false;
  const part = (fix: ComponentRow['fix'], label: string) => {
    const r = componentCell(rows, fix);
    if (!r) return undefined;
    // Only the runs where the rule was checked count (r.checked): a run that could not be checked is
    // not a run without the race. Those are said apart, so that "0 of 2" never hides "none checked".
    // A hold on too little of what the rule judges is no evidence the race was absent: said apart too.
    const apart = [
      ...(r.notChecked > 0 ? [`${r.notChecked} not checked`] : []),
      ...(r.holdsThin > 0 ? [`${r.holdsThin} held on too little`] : []),
      ...(r.holdsCoverageUnknown > 0 ? [`${r.holdsCoverageUnknown} held, coverage unknown`] : []),
    ];
    const unchecked = apart.length > 0 ? ` (${apart.join(', ')})` : '';
    // "runs" once, on the first count: "5 of 12 runs before the fix, 0 of 9 after".
    if (r.checked === 0) return `no checked run of ${r.runs} ${label}`;
    const text = `${r.race} of ${r.checked}${said ? '' : ` ${r.checked === 1 ? 'run' : 'runs'}`} ${label}${unchecked}`;
    said = true;
    return text;
  };
  const parts = [
    part('absent', 'before the fix'),
    part('present', 'after'),
    part('unknown', 'with no rendered configs to tell'),
  ].filter((p) => p !== undefined);
  const matters = unchangedThatMatters(first.unchanged);
  const unchanged = matters === '' ? '' : `, ${matters} unchanged`;
  return `${changedImages(first.changed)}${unchanged} → ${rule === 'master-pool-updated-before-cvo-complete' ? 'race' : rule} in ${parts.join(', ')}`;
}

/** A group's row for one state of the fix (the store gives one row per changed, unchanged and fix); undefined for no run. */
export function componentCell(
  group: readonly ComponentRow[],
  fix: ComponentRow['fix'],
): ComponentRow | undefined {
  const row = group.find((x) => x.fix === fix);
  return row && row.runs > 0 ? row : undefined;
}

export function groupComponents(rows: readonly ComponentRow[]): ComponentRow[][] {
  const groups = new Map<string, ComponentRow[]>();
  for (const r of rows) {
    const k = `${r.changed}\0${r.unchanged}`;
    groups.set(k, [...(groups.get(k) ?? []), r]);
  }
  return [...groups.values()];
}

/** The heads of the holds by coverage (query.ts RateRow), after a rate table's own columns. */
export const HOLDS_HEADS = ['full', 'partial', 'thin', 'coverage unknown'] as const;

export function holdsCells(
  r: Pick<RateRow, 'holdsFull' | 'holdsPartial' | 'holdsThin' | 'holdsCoverageUnknown'>,
): string[] {
  return [r.holdsFull, r.holdsPartial, r.holdsThin, r.holdsCoverageUnknown].map(String);
}

/**
 * What the holds columns mean, under the rate tables' heading: a hold on part of what a rule judges
 * counts as checked (the rate keeps its meaning), and is said apart here.
 */
export const HOLDS_NOTE =
  "holds by how much of what the rule judges it checked (analyze's coverage): all (full), at least half (partial), under half (thin: that run's verdict was inconclusive), or stored before the store kept coverage (unknown; ingest --reanalyze records it)";

/** A rule's overall row with a hold that was not full (partial, thin, or of unknown coverage). */
export function notAllFull(r: RateRow): boolean {
  return r.by === 'all' && r.holdsPartial + r.holdsThin + r.holdsCoverageUnknown > 0;
}

function rateTable(rows: readonly RateRow[], by: RateRow['by'], width: number | undefined): string[] {
  const sel = rows.filter((r) => r.by === by && r.checked + r.notChecked > 0);
  if (sel.length === 0) return [];
  return table(
    ['rule', by === 'all' ? '' : by, 'violated', 'checked', 'rate', 'not checked'],
    sel.map((r) => [
      r.rule,
      by === 'all' ? '' : r.key,
      String(r.violated),
      String(r.checked),
      r.rate === null ? '–' : pct(r.violated, r.checked),
      String(r.notChecked),
    ]),
    new Set([2, 3, 4, 5]),
    width,
  );
}

/** The columns of a duration row after its name: runs, min, the percentiles, max. */
export const DURATION_COLUMNS = ['runs', 'min', 'p50', 'p90', 'p99', 'max'] as const;

/**
 * The operators' level-report durations, the latest first: by p50, by max for an operator with too
 * few runs for a p50. The text report shows the first 8, the HTML page all of them.
 */
export function latestOperatorsFirst(ops: readonly NamedPercentiles[]): NamedPercentiles[] {
  const rank = (p: NamedPercentiles) => p.p50 ?? p.max ?? 0;
  return [...ops].sort((a, b) => rank(b) - rank(a));
}

/** The cells of a duration row after its name; a percentile withheld over too few runs is `–`. */
export function durationCells(p: Percentiles): string[] {
  return [String(p.n), duration(p.min), duration(p.p50), duration(p.p90), duration(p.p99), duration(p.max)];
}

/** How the duration figures were computed, for the heading of their table. */
export function durationNote(bucketMs: number | null): string {
  const how = `percentiles are nearest-rank, each a value some run had; under ${PERCENTILE_MIN_RUNS} runs, only min and max`;
  return bucketMs === null
    ? `exact; ${how}`
    : `bucketed: figures from ${bucketMs / 1000} s buckets, within ${bucketMs / 2000} s; ${how}`;
}

function pctRow(name: string, p: Percentiles): string[] {
  return [name, ...durationCells(p)];
}

/**
 * The report. With a width (the terminal's, or --width), prose lines are wrapped, hanging two columns
 * in; table rows are kept whole. Store text (job names, sources, ingest errors) came from inputs and
 * passes the one terminal sanitiser.
 */
/** `--job typo*: no run in the store matches it; the figures say nothing of it`. */
export function missSentence(m: FilterMiss): string {
  const what =
    m.flag === '--rule'
      ? 'has a state for this rule'
      : m.flag === '--job'
        ? 'has a job it matches'
        : 'is of this stream';
  return `${m.flag} ${terminalSafe(m.value)}: no run in the store ${what}; the figures say nothing of it`;
}

export function statsText(s: StatsResult, settings?: Partial<TextSettings>): string {
  const out: string[] = [];
  const width = settings?.width;
  const f = s.filter;
  const filters = [
    f.since !== undefined ? `since ${new Date(f.since).toISOString()}` : '',
    f.jobs?.length ? `job ${f.jobs.join(', ')}` : '',
    f.streams?.length ? `stream ${f.streams.join(', ')}` : '',
    f.rules?.length ? `rule ${f.rules.join(', ')}` : '',
  ].filter((x) => x !== '');
  out.push(`atlevel stats  ${s.store}${filters.length ? ` · ${filters.join(' · ')}` : ''}`);
  out.push(
    `  ${s.runs} run${s.runs === 1 ? '' : 's'}, ${day(s.firstRun)} to ${day(s.lastRun)}; ${s.ingestErrors} ingest error${s.ingestErrors === 1 ? '' : 's'} in the store`,
  );
  for (const m of s.filterMisses) out.push(`  ${missSentence(m)}`);
  out.push('', 'FAILURE RATE PER RULE (violated of checked runs)');
  out.push(...rateTable(s.rates, 'all', width));
  // The rules with a hold that was not full, their holds by coverage: "held in 40 of 40 runs" is
  // never to be read off runs where the rule checked too little, or whose coverage is unknown.
  const split = s.rates.filter(notAllFull);
  if (split.length > 0)
    out.push(
      '',
      'HOLDS BY COVERAGE (rules that held on part of what they judge, or whose coverage is unknown)',
      `  ${HOLDS_NOTE}`,
      ...table(
        ['rule', 'holds', ...HOLDS_HEADS],
        split.map((r) => [r.rule, String(r.checked - r.violated), ...holdsCells(r)]),
        new Set([1, 2, 3, 4, 5]),
        width,
      ),
    );
  for (const by of ['stream', 'platform', 'week'] as const) {
    const t = rateTable(
      s.rates.filter(
        (r) => r.violated > 0 || s.rates.some((x) => x.rule === r.rule && x.by === 'all' && x.violated > 0),
      ),
      by,
      width,
    );
    if (t.length > 0)
      out.push(
        '',
        `BY ${by === 'stream' ? 'VERSION STREAM (from → to minor)' : by.toUpperCase()} (rules that broke at least once)`,
        ...t,
      );
  }
  out.push('', 'RUNS BY SIGNATURE (violations; "unknown" matched no catalogue entry)');
  // No run kept is no evidence of no violation: said as such.
  if (s.signatures.length === 0) out.push(s.runs === 0 ? '  no runs' : '  no violations');
  else
    out.push(
      ...table(
        ['signature', 'label', 'runs', 'findings', 'first seen', 'last seen', 'fix'],
        s.signatures.map((g) => [
          g.signature,
          g.label,
          String(g.runs),
          String(g.findings),
          day(g.firstSeen),
          day(g.lastSeen),
          g.fix ?? '–',
        ]),
        new Set([2, 3]),
        width,
      ),
    );
  out.push(
    '',
    'EARLY-LEVEL RACES PER OPERATOR (operator-level-before-operands: level reported before an operand rolled out)',
  );
  if (s.earlyLevels.length === 0) out.push('  none');
  else
    out.push(
      ...table(
        ['operator', 'runs', 'findings', 'first seen', 'last seen'],
        s.earlyLevels.map((o) => [
          o.operator,
          String(o.runs),
          String(o.findings),
          day(o.firstSeen),
          day(o.lastSeen),
        ]),
        new Set([1, 2]),
        width,
      ),
    );
  out.push(
    '',
    `CHANGED RELEASE COMPONENTS AND THE RACE (${s.raceRule} violated; the fix: rendered configs carry release-image-version, MCO PR #2918)`,
  );
  const groups = groupComponents(s.components);
  if (groups.length === 0) out.push('  no runs');
  for (const g of groups) out.push(`  ${componentSentence(g, s.raceRule)}`);
  out.push(
    '',
    `DURATIONS (${durationNote(s.percentileBucketMs)}${s.percentileBucketMs === null ? '' : '; --since or --job gives exact ones'})`,
  );
  const rows = [pctRow('update (CVO start → completion)', s.updateMs)];
  for (const p of s.levelGapMs) rows.push(pctRow(`machine-config level report → ${p.name} pool finish`, p));
  for (const p of s.rolloutMs) rows.push(pctRow(`${p.name} pool rollout`, p));
  const right = new Set(DURATION_COLUMNS.map((_, i) => i + 1));
  out.push(...table(['', ...DURATION_COLUMNS], rows, right, width));
  const ops = latestOperatorsFirst(s.operatorLevelMs).slice(0, 8);
  if (ops.length > 0) {
    out.push(
      '',
      `LEVEL REPORTS AFTER THE UPDATE STARTED (--operators; the 8 latest operators by p50, by max under ${PERCENTILE_MIN_RUNS} runs; all in -o json, csv and html)`,
    );
    out.push(
      ...table(
        ['operator', ...DURATION_COLUMNS],
        ops.map((o) => pctRow(o.name, o)),
        right,
        width,
      ),
    );
  }
  if (s.errors.length > 0) {
    out.push('', `INGEST ERRORS (latest ${s.errors.length} of ${s.ingestErrors})`);
    for (const e of s.errors) out.push(`  ${e.source}: ${e.error}`);
  }
  const lines = out.flatMap((l) => {
    if (l.startsWith(TABLE_LINE)) return [l.slice(TABLE_LINE.length)];
    if (width === undefined) return [l];
    return wrap(l, width, (/^ */.exec(l)?.[0].length ?? 0) + 2).map((w) => w.trimEnd());
  });
  return terminalSafe(`${lines.join('\n')}\n`);
}
