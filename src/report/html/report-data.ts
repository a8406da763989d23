import type { ClusterHistory, Interval, SourceRef } from '../../model/index.js';
import {
  type Evidence,
  type Finding,
  locatorOf,
  objectKey,
  type RuleInfo,
  SEVERITY_ORDER,
  StringTable,
} from '../../model/index.js';
import { operandRolloutIntervals, operandsByOperator } from '../../timeline/index.js';
import { formatRef } from '../refs.js';
import type {
  ReportBar,
  ReportCoverage,
  ReportData,
  ReportEvidence,
  ReportFinding,
  ReportGroup,
  ReportMark,
  ReportRow,
  ReportRuleState,
  ReportVerdict,
} from './report-data-types.js';
import {
  compareGroups,
  compareText,
  groupLabel,
  locatorText,
  locatorTextOfKey,
  nodeRolesOf,
  operandRow,
  type RowIdentity,
  rowOfKey,
  rowRank,
  TEST_GROUP,
} from './rows.js';
import { testLogItems } from './test-log.js';
import { barLabel, markKindOf, messageText, toneOf } from './tones.js';

export interface HtmlReportInput {
  readonly history: ClusterHistory;
  readonly findings: readonly Finding[];
  readonly rules: readonly RuleInfo[];
  /** analyze's outcome per rule id and its verdict, shown as they are (the page never recomputes them). */
  readonly outcomes?: ReadonlyMap<
    string,
    {
      readonly state: ReportRuleState;
      readonly reason?: string;
      readonly missing: readonly string[];
      readonly coverage?: ReportCoverage;
    }
  >;
  readonly verdict?: ReportVerdict;
  /**
   * The update's window as analyze worked it out: the chart's reset view. Bars and marks outside it are
   * drawn as context but do not stretch it. Absent: the span of everything drawn.
   */
  readonly window?: { readonly from: number; readonly to: number };
  readonly title: string;
  readonly generatedFrom: readonly string[];
}

/** A selected finding's window is padded by this share of its moments' spread on each side... */
const WINDOW_PAD_SHARE = 0.25;
/** ...and by at least this much, so moments one second apart are still told apart. */
const WINDOW_PAD_MIN = 60_000;

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

const TEST_ROW_KEY = `${TEST_GROUP}/upgrade test log`;

/**
 * History + findings → the report data the page draws. Pure and deterministic: the same input gives
 * the same JSON (rows in a fixed order, strings interned in first-use order), so it is golden-tested.
 * It only arranges what it is given for display; it never decides whether something is wrong.
 */
export function buildReportData(input: HtmlReportInput): ReportData {
  const { history } = input;
  const nodeRoles = nodeRolesOf(history.objects.nodes);
  const strings = new StringTable();
  const rows = new RowTable(nodeRoles, strings);
  const bars: Mutable<ReportBar>[] = [];
  const marks: Mutable<ReportMark>[] = [];

  // An operator's operands sit under it: their rows first, so their own intervals (conditions) land
  // there too, then their rollouts as the timeline places them.
  const operands = operandsByOperator(history);
  for (const [operator, list] of operands) {
    for (const r of list) {
      const identity = operandRow(operator, r.kind, r.namespace, r.name);
      rows.ensure(
        rowOfKey(identity.parent ?? '', nodeRoles),
        locatorTextOfKey(identity.parent ?? ''),
        r.from ?? Number.POSITIVE_INFINITY,
      );
      rows.ensure(
        identity,
        locatorText(locatorOf(r.kind, r.name, r.namespace)),
        r.from ?? Number.POSITIVE_INFINITY,
      );
    }
  }
  const rollouts = operandRolloutIntervals([...operands.values()].flat(), history.span?.to);

  // One pass, few allocations: a run can hold hundreds of thousands of intervals.
  for (const interval of rollouts.length === 0 ? history.intervals : [...history.intervals, ...rollouts]) {
    if (!Number.isFinite(interval.from)) continue;
    const from = interval.from;
    const to = Number.isFinite(interval.to) ? Math.max(from, interval.to) : from;
    const locator = locatorText(interval.locator);
    const row = rows.ensureKey(objectKey(interval.locator), locator, from);
    const own = locator === rows.locatorOf(row) ? undefined : strings.id(locator);
    const text = strings.id(messageText(interval));
    const where = refOf(interval.ref, strings);
    const source = strings.id(interval.source);
    const tone = toneOf(interval);
    if (to === from) {
      const mark: Mutable<ReportMark> = {
        row,
        at: from,
        kind: markKindOf(interval),
        tone,
        text,
        ...where,
        source,
      };
      if (own !== undefined) mark.locator = own;
      marks.push(mark);
      continue;
    }
    const label = strings.id(barLabel(interval));
    const bar: Mutable<ReportBar> = { row, from, to, tone, label, text, ...where, source };
    if (own !== undefined) bar.locator = own;
    bars.push(bar);
    const completed = completionMark(interval, row, strings);
    if (completed) {
      const mark: Mutable<ReportMark> = { ...completed, ...where, source };
      if (own !== undefined) mark.locator = own;
      marks.push(mark);
    }
  }

  for (const item of testLogItems(history.testLog)) {
    const identity = item.pool ? rowOfKey(`MachineConfigPool/${item.pool}`, nodeRoles) : testRow();
    const row = rows.ensure(identity, locatorTextOfKey(identity.key), item.from);
    const common = {
      row,
      tone: item.tone,
      text: strings.id(item.text),
      ...refOf(item.ref, strings),
      source: strings.id('upgrade test'),
      locator: strings.id('upgrade test'),
    };
    if (item.kind === 'bar')
      bars.push({ ...common, from: item.from, to: item.to, label: strings.id(item.label) });
    else if (item.claimOf !== undefined) {
      const claim = claimOf(item.claimOf, input);
      marks.push({
        ...common,
        tone: claim.tone,
        at: item.from,
        kind: item.kind,
        claim: strings.id(claim.text),
      });
    } else marks.push({ ...common, at: item.from, kind: item.kind });
  }

  // Every object a finding names gets a row, even with nothing drawn on it, so its markers have a home.
  for (const f of input.findings) {
    for (const m of f.moments ?? [])
      for (const o of m.objects) rows.ensure(rowOfKey(o, nodeRoles), locatorTextOfKey(o), m.at);
    for (const o of f.subject?.objects ?? [])
      rows.ensure(rowOfKey(o, nodeRoles), locatorTextOfKey(o), Number.POSITIVE_INFINITY);
  }

  const order = rows.displayOrder();
  const remap = new Int32Array(order.length);
  order.forEach((oldIndex, newIndex) => {
    remap[oldIndex] = newIndex;
  });
  const finalRows = order.map((i) => rows.rowAt(i));
  const rowIndex = new Map(finalRows.map((r, i) => [r.key, i]));
  for (const b of bars) b.row = remap[b.row] as number;
  for (const m of marks) m.row = remap[m.row] as number;
  const finalBars = bars.sort((a, b) => a.row - b.row || a.from - b.from || a.to - b.to || a.text - b.text);
  const finalMarks = marks.sort((a, b) => a.row - b.row || a.at - b.at || a.text - b.text);

  const findings = [...input.findings]
    .map((f, i) => ({ f, i }))
    .sort((a, b) => SEVERITY_ORDER[a.f.severity] - SEVERITY_ORDER[b.f.severity] || a.i - b.i)
    .map(({ f }) => shapeFinding(f, input.rules, rowIndex));

  return {
    schema: 1,
    title: input.title,
    generatedFrom: [...input.generatedFrom],
    ...(input.window ? { span: { ...input.window } } : spanOf(history, finalBars, finalMarks, findings)),
    inputs: history.inputs.map((i) => ({
      path: i.path,
      reader: i.reader,
      bytes: i.bytes,
      contributed: i.contributed,
    })),
    notes: [...history.notes],
    rules: input.rules.map((r) => {
      const o = input.outcomes?.get(r.id);
      return {
        id: r.id,
        statement: r.statement,
        doc: r.doc,
        findings: input.findings.filter((f) => f.rule === r.id).length,
        ...(o ? { state: o.state, missing: [...o.missing] } : {}),
        ...(o?.reason !== undefined ? { reason: o.reason } : {}),
        ...(o?.coverage !== undefined ? { coverage: o.coverage } : {}),
      };
    }),
    ...(input.verdict ? { verdict: input.verdict } : {}),
    findings,
    groups: groupsOf(finalRows),
    rows: finalRows,
    bars: finalBars,
    marks: finalMarks,
    strings: strings.all(),
  };
}

/**
 * What a line of origin's upgrade test that asserts a violation is, beside atlevel's own outcome on the
 * same question (`rule`): origin's claim, never atlevel's verdict. Red only when atlevel's rule is
 * violated too; otherwise amber, as the text report's warning quoting the line (docs/report.md).
 */
function claimOf(rule: string, input: HtmlReportInput): { text: string; tone: ReportMark['tone'] } {
  const o = input.outcomes?.get(rule);
  const head = "origin's upgrade test's claim, not atlevel's verdict";
  if (!o)
    return {
      text: `${head}; atlevel's verdict on the same question (${rule}) is not in this report`,
      tone: 'warn',
    };
  const said =
    o.state === 'violated'
      ? 'violated: atlevel sees it too'
      : o.state === 'holds'
        ? "holds: atlevel's evidence says the rule held"
        : `not checked${o.reason ? `: ${o.reason}` : ''}`;
  return {
    text: `${head}. atlevel's own verdict on the same question (${rule}): ${said}`,
    tone: o.state === 'violated' ? 'bad' : 'warn',
  };
}

/** A source reference split so the file name, the same for thousands of intervals, is stored once. */
function refOf(ref: SourceRef, strings: StringTable): { file: number; line?: number; path?: number } {
  const out: { file: number; line?: number; path?: number } = { file: strings.id(ref.file) };
  if (ref.line !== undefined) out.line = ref.line;
  if (ref.path !== undefined) out.path = strings.id(ref.path);
  return out;
}

function testRow(): RowIdentity {
  return { key: TEST_ROW_KEY, group: TEST_GROUP, label: 'upgrade test log' };
}

/**
 * A ClusterVersion history entry is drawn as the update's bar; its completion is also the moment the
 * CVO declared the version reached, so it gets a version marker where the bar ends.
 */
function completionMark(
  interval: Interval,
  row: number,
  strings: StringTable,
): Omit<ReportMark, 'file' | 'line' | 'path' | 'source'> | undefined {
  const a = interval.message.annotations;
  if (interval.message.reason !== 'UpdateHistory' || a.state !== 'Completed' || a.open === 'true')
    return undefined;
  return {
    row,
    at: interval.to,
    kind: 'version',
    tone: 'ok',
    text: strings.id(`history: ${a.version ?? interval.message.humanMessage} completed`),
  };
}

function shapeFinding(
  f: Finding,
  rules: readonly RuleInfo[],
  rowIndex: ReadonlyMap<string, number>,
): ReportFinding {
  const evidence = (e: Evidence): ReportEvidence => {
    const row = e.object === undefined ? undefined : rowIndex.get(e.object);
    return {
      statement: e.statement,
      ...(e.at !== undefined ? { at: e.at } : {}),
      ...(e.object !== undefined ? { object: e.object } : {}),
      ...(e.field !== undefined ? { field: e.field } : {}),
      ...(e.value !== undefined ? { value: e.value } : {}),
      ...(e.ref ? { ref: formatRef(e.ref) } : {}),
      ...(row !== undefined ? { row } : {}),
    };
  };
  const moments = (f.moments ?? []).map((m) => ({
    label: m.label,
    at: m.at,
    objects: [...m.objects],
    rows: m.objects.map((o) => rowIndex.get(o)).filter((r): r is number => r !== undefined),
  }));
  const ex = f.explanation;
  const steps = (ex?.steps ?? []).map((s) => ({
    title: s.title,
    ...(s.at !== undefined ? { at: s.at } : {}),
    evidence: s.evidence.map(evidence),
  }));
  const shownEvidence = f.evidence.map(evidence);

  // Rows to pin: what the moments name, then the subject, then any other row the evidence points at.
  const focus: number[] = [];
  const add = (row: number | undefined): void => {
    if (row !== undefined && !focus.includes(row)) focus.push(row);
  };
  for (const m of moments) m.rows.forEach(add);
  for (const o of f.subject?.objects ?? []) add(rowIndex.get(o));
  for (const e of shownEvidence) add(e.row);
  for (const s of steps) for (const e of s.evidence) add(e.row);

  const statement = rules.find((r) => r.id === f.rule)?.statement;
  const window = windowOf([...moments.map((m) => m.at), ...(f.at !== undefined ? [f.at] : [])]);
  return {
    rule: f.rule,
    ...(statement !== undefined ? { ruleStatement: statement } : {}),
    severity: f.severity,
    summary: f.summary,
    ...(f.at !== undefined ? { at: f.at } : {}),
    evidence: shownEvidence,
    steps,
    ...(ex?.configDiff ? { configDiff: ex.configDiff } : {}),
    ...(ex?.signature ? { signature: ex.signature } : {}),
    moments,
    rows: focus,
    ...(window ? { window } : {}),
  };
}

function windowOf(times: readonly number[]): { from: number; to: number } | undefined {
  const finite = times.filter(Number.isFinite);
  if (finite.length === 0) return undefined;
  const from = Math.min(...finite);
  const to = Math.max(...finite);
  const pad = Math.max((to - from) * WINDOW_PAD_SHARE, WINDOW_PAD_MIN);
  return { from: from - pad, to: to + pad };
}

function spanOf(
  history: ClusterHistory,
  bars: readonly ReportBar[],
  marks: readonly ReportMark[],
  findings: readonly ReportFinding[],
): { span?: { from: number; to: number } } {
  let from = history.span?.from ?? Number.POSITIVE_INFINITY;
  let to = history.span?.to ?? Number.NEGATIVE_INFINITY;
  for (const b of bars) {
    if (b.from < from) from = b.from;
    if (b.to > to) to = b.to;
  }
  for (const m of marks) {
    if (m.at < from) from = m.at;
    if (m.at > to) to = m.at;
  }
  for (const f of findings) {
    for (const m of f.moments) {
      if (m.at < from) from = m.at;
      if (m.at > to) to = m.at;
    }
  }
  if (!Number.isFinite(from) || !Number.isFinite(to)) return {};
  return { span: { from, to: Math.max(from, to) } };
}

function groupsOf(rows: readonly ReportRow[]): ReportGroup[] {
  const groups: { id: string; label: string; rows: number[] }[] = [];
  rows.forEach((r, i) => {
    const last = groups[groups.length - 1];
    if (last?.id === r.group) last.rows.push(i);
    else groups.push({ id: r.group, label: groupLabel(r.group), rows: [i] });
  });
  return groups;
}

/** Rows as they are first met, and the order they are shown in. */
class RowTable {
  private readonly rows: { identity: RowIdentity; locator: number; first: number }[] = [];
  private readonly byKey = new Map<string, number>();

  constructor(
    private readonly nodeRoles: ReadonlyMap<string, string>,
    private readonly strings: StringTable,
  ) {}

  /** The row of an object key, made from the key on first sight (cheaper than an identity per interval). */
  ensureKey(key: string, locator: string, at: number): number {
    const known = this.byKey.get(key);
    if (known === undefined) return this.ensure(rowOfKey(key, this.nodeRoles), locator, at);
    const row = this.rows[known];
    if (row && at < row.first) row.first = at;
    return known;
  }

  ensure(identity: RowIdentity, locator: string, at: number): number {
    const known = this.byKey.get(identity.key);
    if (known !== undefined) {
      const row = this.rows[known];
      if (row && at < row.first) row.first = at;
      return known;
    }
    this.rows.push({ identity, locator: this.strings.id(locator), first: at });
    this.byKey.set(identity.key, this.rows.length - 1);
    return this.rows.length - 1;
  }

  /** The label of the row of `key`, or the key when it has no row. */
  labelOf(key: string): string {
    const i = this.byKey.get(key);
    return (i === undefined ? undefined : this.rows[i]?.identity.label) ?? key;
  }

  locatorOf(row: number): string {
    return this.strings.at(this.rows[row]?.locator ?? -1);
  }

  rowAt(index: number): ReportRow {
    const r = this.rows[index];
    if (!r) throw new Error(`no row ${index}`);
    const row = { key: r.identity.key, label: r.identity.label, group: r.identity.group, locator: r.locator };
    return r.identity.parent !== undefined ? { ...row, parent: r.identity.parent } : row;
  }

  /**
   * Indices in display order: by group, then by rank (master pool first, control-plane nodes first),
   * then rendered configs by creation and everything else by label.
   */
  displayOrder(): number[] {
    const rank = this.rows.map((r) => rowRank(r.identity, this.nodeRoles));
    return this.rows
      .map((_, i) => i)
      .sort((ia, ib) => {
        const a = this.rows[ia];
        const b = this.rows[ib];
        if (!a || !b) return 0;
        const byGroup = compareGroups(a.identity.group, b.identity.group);
        if (byGroup !== 0) return byGroup;
        // An operand right under its operator: both sort by the operator's label, the operator first.
        const pa = a.identity.parent !== undefined ? this.labelOf(a.identity.parent) : undefined;
        const pb = b.identity.parent !== undefined ? this.labelOf(b.identity.parent) : undefined;
        if (pa !== undefined || pb !== undefined) {
          const byOperator =
            compareText(pa ?? a.identity.label, pb ?? b.identity.label) ||
            compareText(a.identity.parent ?? a.identity.key, b.identity.parent ?? b.identity.key);
          if (byOperator !== 0) return byOperator;
          if ((pa === undefined) !== (pb === undefined)) return pa === undefined ? -1 : 1;
        }
        const byRank = (rank[ia] ?? 0) - (rank[ib] ?? 0);
        if (byRank !== 0) return byRank;
        if (a.identity.group === 'MachineConfig' && a.first !== b.first) return a.first < b.first ? -1 : 1;
        return compareText(a.identity.label, b.identity.label) || compareText(a.identity.key, b.identity.key);
      });
  }
}
