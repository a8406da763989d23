/**
 * `atlevel stats -o html`: one self-contained page on the report's shell and styles (report/html):
 * the same stylesheet, a Content-Security-Policy that allows only that stylesheet (by hash) and
 * nothing else (no script at all, no network), and the tables of the text report with bars drawn as
 * inline SVG (SVG attributes are not CSS, so the strict style-src holds).
 */
import { plural } from '../model/index.js';
import { cspHash, escapeHtml, PAGE_CSS } from '../report/index.js';
import type { ComponentRow, RateRow, StatsResult } from './query.js';
import {
  componentCell,
  componentList,
  DURATION_COLUMNS,
  day,
  durationCells,
  durationNote,
  groupComponents,
  HOLDS_HEADS,
  HOLDS_NOTE,
  holdsCells,
  latestOperatorsFirst,
  missSentence,
  notAllFull,
  pct,
  percent,
  unchangedThatMatters,
} from './text.js';

const STATS_CSS = `
table.stats{border-collapse:collapse;margin:4px 0 16px;min-width:40%}
table.stats th,table.stats td{border-bottom:1px solid var(--line);padding:4px 10px;text-align:left;vertical-align:middle}
table.stats th{background:var(--panel);font-weight:600}
table.stats td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.bar rect.bg{fill:#eceff1}.bar rect.fg{fill:var(--fail)}.bar rect.ok{fill:#2e7d32}
section.block{margin:0 0 8px}
p.lead{color:var(--muted);margin:0 0 8px}
table.stats td .cov{display:block;color:var(--muted);font-size:smaller;white-space:normal}
`;
const CSS = PAGE_CSS + STATS_CSS;

const e = escapeHtml;

function bar(rate: number | null): string {
  const w = 120;
  // Never drawn empty for a rate above 0, nor full for one under 1 (as percent() never prints 0.0% or 100.0% for them).
  const fill =
    rate === null ? 0 : Math.min(rate < 1 ? w - 1 : w, Math.max(rate > 0 ? 1 : 0, Math.round(rate * w)));
  return `<svg class="bar" width="${w}" height="10" role="img" aria-label="${rate === null ? 'not checked' : e(percent(rate))}"><rect class="bg" width="${w}" height="10"/><rect class="fg" width="${fill}" height="10"/></svg>`;
}

function rateTable(rows: readonly RateRow[], by: RateRow['by']): string {
  const sel = rows.filter((r) => r.by === by && r.checked + r.notChecked > 0);
  if (sel.length === 0) return '<p class="lead">nothing</p>';
  const head = `<tr><th>rule</th>${by === 'all' ? '' : `<th>${e(by)}</th>`}<th>violated</th><th>checked</th><th>rate</th><th></th><th>not checked</th></tr>`;
  const body = sel
    .map(
      (r) =>
        `<tr><td class="mono">${e(r.rule)}</td>${by === 'all' ? '' : `<td>${e(r.key)}</td>`}<td class="n">${r.violated}</td><td class="n">${r.checked}</td><td class="n">${r.rate === null ? '–' : e(pct(r.violated, r.checked))}</td><td>${bar(r.rate)}</td><td class="n">${r.notChecked}</td></tr>`,
    )
    .join('');
  return `<table class="stats">${head}${body}</table>`;
}

export function statsHtml(s: StatsResult): string {
  const title = `atlevel stats: ${plural(s.runs, 'run')}`;
  const broke = new Set(s.rates.filter((r) => r.by === 'all' && r.violated > 0).map((r) => r.rule));
  const brokeRows = s.rates.filter((r) => broke.has(r.rule));
  const sections: string[] = [];
  sections.push(
    `<p class="meta">${e(s.store)} · ${plural(s.runs, 'run')}, ${day(s.firstRun)} to ${day(s.lastRun)} · ${plural(s.ingestErrors, 'ingest error')}</p>`,
  );
  for (const m of s.filterMisses) sections.push(`<p class="meta">${e(missSentence(m))}</p>`);
  sections.push(
    `<section class="block"><h2>Failure rate per rule</h2><p class="lead">violated of checked runs</p>${rateTable(s.rates, 'all')}</section>`,
  );
  // As the text report: the rules with a hold that was not full, their holds by coverage.
  const split = s.rates.filter(notAllFull);
  if (split.length > 0) {
    const rows = split
      .map(
        (r) =>
          `<tr><td class="mono">${e(r.rule)}</td><td class="n">${r.checked - r.violated}</td>${holdsCells(r)
            .map((n) => `<td class="n">${n}</td>`)
            .join('')}</tr>`,
      )
      .join('');
    sections.push(
      `<section class="block"><h2>Holds by coverage</h2><p class="lead">rules that held on part of what they judge, or whose coverage is unknown: ${e(HOLDS_NOTE)}</p><table class="stats"><tr><th>rule</th><th>holds</th>${HOLDS_HEADS.map((h) => `<th>${e(h)}</th>`).join('')}</tr>${rows}</table></section>`,
    );
  }
  for (const by of ['stream', 'platform', 'week'] as const) {
    const label = by === 'stream' ? 'version stream (from → to minor)' : by;
    sections.push(
      `<section class="block"><h2>By ${e(label)}</h2><p class="lead">rules that broke at least once</p>${rateTable(brokeRows, by)}</section>`,
    );
  }
  const sigRows = s.signatures
    .map(
      (g) =>
        `<tr><td class="mono">${e(g.signature)}</td><td>${e(g.label)}</td><td class="n">${g.runs}</td><td class="n">${g.findings}</td><td>${day(g.firstSeen)}</td><td>${day(g.lastSeen)}</td><td>${g.bug ? e(g.bug) : '–'}</td><td>${g.fix ? e(g.fix) : '–'}</td></tr>`,
    )
    .join('');
  sections.push(
    `<section class="block"><h2>Runs by signature</h2><p class="lead">violations grouped by the catalogue entry they match; "unknown" matched none</p>${
      s.signatures.length === 0
        ? `<p class="lead">${s.runs === 0 ? 'no runs' : 'no violations'}</p>`
        : `<table class="stats"><tr><th>signature</th><th>label</th><th>runs</th><th>findings</th><th>first seen</th><th>last seen</th><th>bug</th><th>fix</th></tr>${sigRows}</table>`
    }</section>`,
  );
  const earlyRows = s.earlyLevels
    .map(
      (o) =>
        `<tr><td class="mono">${e(o.operator)}</td><td class="n">${o.runs}</td><td class="n">${o.findings}</td><td>${day(o.firstSeen)}</td><td>${day(o.lastSeen)}</td></tr>`,
    )
    .join('');
  sections.push(
    `<section class="block"><h2>Early-level races per operator</h2><p class="lead">findings of <span class="mono">operator-level-before-operands</span>: the operator reported level before a workload it manages had rolled out</p>${
      s.earlyLevels.length === 0
        ? '<p class="lead">none</p>'
        : `<table class="stats"><tr><th>operator</th><th>runs</th><th>findings</th><th>first seen</th><th>last seen</th></tr>${earlyRows}</table>`
    }</section>`,
  );
  // As the text report: runs without rendered configs to tell the fix get their own column when there are any.
  const fixes: readonly (readonly [ComponentRow['fix'], string])[] = [
    ['absent', 'before the fix'],
    ['present', 'after'],
    ...(s.components.some((c) => c.fix === 'unknown')
      ? [['unknown', 'no rendered configs to tell'] as const]
      : []),
  ];
  const compRows = groupComponents(s.components)
    .map((g) => {
      const first = g[0];
      const cell = (fix: ComponentRow['fix']) => {
        const r = componentCell(g, fix);
        if (!r) return '<td class="n">–</td><td></td>';
        // Out of the checked runs, as the text report counts; every hold by coverage and the runs not
        // checked under it: a thin hold, or one of unknown coverage, is no evidence the race was absent.
        const count = r.checked === 0 ? `no checked run of ${r.runs}` : `${r.race} of ${r.checked}`;
        const holds = HOLDS_HEADS.map((h, i) => `${h} ${holdsCells(r)[i]}`).join(', ');
        return `<td class="n">${count}<span class="cov">held: ${e(holds)}; not checked ${r.notChecked}</span></td><td>${bar(r.rate)}</td>`;
      };
      return `<tr><td>${e(componentList(first?.changed ?? ''))}</td><td title="${e(componentList(first?.unchanged ?? ''))}">${e(unchangedThatMatters(first?.unchanged ?? '') || componentList(first?.unchanged ?? ''))}</td>${fixes.map(([fix]) => cell(fix)).join('')}</tr>`;
    })
    .join('');
  sections.push(
    `<section class="block"><h2>Changed release components and the race</h2><p class="lead">runs in which <span class="mono">${e(s.raceRule)}</span> was violated, of the runs where it was checked, before the fix and after it (rendered configs stamped with release-image-version, MCO PR #2918), with the runs where it held by coverage (${e(HOLDS_NOTE)}) and those where it was not checked; "unchanged" names machine-config-operator and the OS image when they stayed put (the full list on hover)</p><table class="stats"><tr><th>changed</th><th>unchanged</th>${fixes.map(([, label]) => `<th>${e(label)}</th><th></th>`).join('')}</tr>${compRows}</table></section>`,
  );
  const pctRows = [
    ['update (CVO start → completion)', s.updateMs] as const,
    ...s.levelGapMs.map((p) => [`machine-config level report → ${p.name} pool finish`, p] as const),
    ...s.rolloutMs.map((p) => [`${p.name} pool rollout`, p] as const),
  ]
    .map(
      ([name, p]) =>
        `<tr><td>${e(name)}</td>${durationCells(p)
          .map((c) => `<td class="n">${e(c)}</td>`)
          .join('')}</tr>`,
    )
    .join('');
  sections.push(
    `<section class="block"><h2>Durations</h2><p class="lead">${e(durationNote(s.percentileBucketMs))}</p><table class="stats"><tr><th></th>${DURATION_COLUMNS.map((c) => `<th>${c}</th>`).join('')}</tr>${pctRows}</table></section>`,
  );
  // --operators: every operator, as -o json has them (the text report keeps the 8 latest).
  if (s.operatorLevelMs.length > 0) {
    const opRows = latestOperatorsFirst(s.operatorLevelMs)
      .map(
        (p) =>
          `<tr><td class="mono">${e(p.name)}</td>${durationCells(p)
            .map((c) => `<td class="n">${e(c)}</td>`)
            .join('')}</tr>`,
      )
      .join('');
    sections.push(
      `<section class="block"><h2>Level reports after the update started</h2><p class="lead">each ClusterOperator's level report, from the update's start; the latest first (by p50, by max when there are too few runs for one)</p><table class="stats"><tr><th>operator</th>${DURATION_COLUMNS.map((c) => `<th>${c}</th>`).join('')}</tr>${opRows}</table></section>`,
    );
  }
  if (s.errors.length > 0) {
    sections.push(
      `<section class="block"><h2>Ingest errors</h2><table class="stats"><tr><th>run</th><th>error</th></tr>${s.errors.map((x) => `<tr><td class="mono">${e(x.source)}</td><td>${e(x.error)}</td></tr>`).join('')}</table></section>`,
    );
  }
  const csp = [
    "default-src 'none'",
    `style-src ${cspHash(CSS)}`,
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${e(csp)}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="atlevel">
<title>${e(title)}</title>
<style>${CSS}</style>
</head>
<body>
<header class="page-header"><h1>${e(title)}</h1></header>
<main id="stats">
${sections.join('\n')}
</main>
</body>
</html>
`;
}
