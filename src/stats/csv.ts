/**
 * `atlevel stats -o csv`: every figure as one row of a long table (section, subject, dimension, key,
 * measure, value), so a spreadsheet or pandas can pivot it any way. RFC 4180 quoting.
 */
import { terminalSafe } from '../model/index.js';
import type { Percentiles, StatsResult } from './query.js';

/**
 * A spreadsheet reads a cell starting with one of these as a formula (`=HYPERLINK(…)`, `@SUM(…)`, and
 * `+`/`-` in most of them; tab and CR end up in front of one after a paste): OWASP's CSV injection
 * advice is to put a single quote in front of such a cell and quote it.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One RFC 4180 field. Pool, operator and release component names came from inputs: like the text
 * report, each passes the one terminal sanitiser (the table goes to stdout as often as to a file),
 * cell by cell so that the CRLF between rows stays. A text cell that a spreadsheet would take as a
 * formula is neutralised (FORMULA_START); numbers are figures atlevel computed and stay numbers, a
 * negative one included.
 */
function cell(v: string | number | null): string {
  if (typeof v === 'number') return String(v);
  let s = v === null ? '' : terminalSafe(v);
  if (FORMULA_START.test(s)) s = `'${s}`;
  return /[",\n\r']/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function statsCsv(s: StatsResult): string {
  const rows: (string | number | null)[][] = [['section', 'subject', 'dimension', 'key', 'measure', 'value']];
  for (const r of s.rates) {
    for (const [m, v] of [
      ['runs', r.runs],
      ['checked', r.checked],
      ['violated', r.violated],
      ['not-checked', r.notChecked],
      ['rate', r.rate],
      ['holds-full', r.holdsFull],
      ['holds-partial', r.holdsPartial],
      ['holds-thin', r.holdsThin],
      ['holds-coverage-unknown', r.holdsCoverageUnknown],
    ] as const)
      rows.push(['rate', r.rule, r.by, r.key, m, v]);
  }
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  for (const g of s.signatures) {
    for (const [m, v] of [
      ['runs', g.runs],
      ['findings', g.findings],
      ['first-seen', iso(g.firstSeen)],
      ['last-seen', iso(g.lastSeen)],
    ] as const)
      rows.push(['signature', g.signature, 'label', g.label, m, v]);
  }
  for (const o of s.earlyLevels) {
    for (const [m, v] of [
      ['runs', o.runs],
      ['findings', o.findings],
      ['first-seen', iso(o.firstSeen)],
      ['last-seen', iso(o.lastSeen)],
    ] as const)
      rows.push(['early-level', o.operator, 'rule', 'operator-level-before-operands', m, v]);
  }
  for (const c of s.components) {
    const key = `changed=${c.changed};unchanged=${c.unchanged}`;
    for (const [m, v] of [
      ['runs', c.runs],
      ['race', c.race],
      ['not-checked', c.notChecked],
      ['holds-full', c.holdsFull],
      ['holds-partial', c.holdsPartial],
      ['holds-thin', c.holdsThin],
      ['holds-coverage-unknown', c.holdsCoverageUnknown],
    ] as const)
      rows.push(['components', s.raceRule, `fix=${c.fix}`, key, m, v]);
  }
  const pct = (section: string, subject: string, p: Percentiles) => {
    for (const [m, v] of [
      ['n', p.n],
      ['min-ms', p.min],
      ['p50-ms', p.p50],
      ['p90-ms', p.p90],
      ['p99-ms', p.p99],
      ['max-ms', p.max],
    ] as const)
      rows.push([section, subject, '', '', m, v]);
  };
  pct('update-duration', 'all', s.updateMs);
  for (const p of s.levelGapMs) pct('level-report-to-pool-finish', p.name, p);
  for (const p of s.rolloutMs) pct('pool-rollout', p.name, p);
  for (const p of s.operatorLevelMs) pct('operator-level-since-start', p.name, p);
  rows.push(
    ['totals', 'runs', '', '', 'count', s.runs],
    ['totals', 'ingest-errors', '', '', 'count', s.ingestErrors],
    ...s.filterMisses.map((m): (string | number)[] => ['filter', m.flag.slice(2), '', m.value, 'runs', 0]),
    ['durations', 'percentiles', '', '', 'bucket-ms', s.percentileBucketMs],
  );
  return `${rows.map((r) => r.map(cell).join(',')).join('\r\n')}\r\n`;
}
