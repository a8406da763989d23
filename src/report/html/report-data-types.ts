/**
 * The "report data": the plain JSON object that the HTML report embeds and its page script draws.
 * It is built in Node by report-data.ts (pure, golden-tested) and read in the browser by page/;
 * this file holds only types so both sides share one contract without sharing code.
 *
 * Times are epoch milliseconds (UTC). Strings that repeat a lot (messages, locators, file names) are
 * stored once in `strings` and referenced by index, which keeps a 100,000-interval report small.
 */
import type { MachineConfigDiff } from '../../machineconfig/index.js';
import type { Severity, Signature } from '../../model/index.js';

/** What a bar's colour means. Drawn in this order, so the worst state ends on top. */
export type Tone = 'info' | 'ok' | 'warn' | 'progress' | 'bad';
export const TONES: readonly Tone[] = ['info', 'ok', 'warn', 'progress', 'bad'];

/** Instants: a version change, a rendered config created, or any other zero-length event. */
export type MarkKind = 'version' | 'created' | 'instant';

export interface ReportRow {
  /** The object key shared with findings' moments: `MachineConfigPool/master`. */
  readonly key: string;
  /** What the row's gutter shows: `master`, `ip-10-0-1-2 (master)`. */
  readonly label: string;
  /** Group id (a locator type, or `UpgradeTest`). */
  readonly group: string;
  /** The locator most of the row's intervals carry, as origin writes it (strings index). */
  readonly locator: number;
  /**
   * An operand's row (a Deployment or DaemonSet its operator manages): the key of its operator's row,
   * which it is shown under, indented.
   */
  readonly parent?: string;
}

export interface ReportGroup {
  readonly id: string;
  readonly label: string;
  /** Row indices, in display order. */
  readonly rows: readonly number[];
}

export interface ReportBar {
  readonly row: number;
  readonly from: number;
  readonly to: number;
  readonly tone: Tone;
  /** Short text drawn on the bar when it is wide enough (strings index). */
  readonly label: number;
  /** The interval's message: annotations then the human message (strings index). */
  readonly text: number;
  /** Where it was read: the file (strings index), its line, and the path inside it (strings index). */
  readonly file: number;
  readonly line?: number;
  readonly path?: number;
  /** Who produced it: `build-log`, `e2e-events`, `derived:condition`, `upgrade test` (strings index). */
  readonly source: number;
  /** The interval's own locator, only when it differs from the row's (strings index). */
  readonly locator?: number;
}

export interface ReportMark {
  readonly row: number;
  readonly at: number;
  readonly kind: MarkKind;
  readonly tone: Tone;
  readonly text: number;
  readonly file: number;
  readonly line?: number;
  readonly path?: number;
  readonly source: number;
  readonly locator?: number;
  /**
   * Set on a mark that quotes another tool's verdict (origin's upgrade test logging an invariant
   * violation): whose claim it is and atlevel's own outcome on the same question, in words. The page
   * shows it as it is.
   */
  readonly claim?: number;
}

export interface ReportEvidence {
  readonly statement: string;
  readonly at?: number;
  readonly object?: string;
  readonly field?: string;
  readonly value?: string;
  /** `file:line path`, ready to print. */
  readonly ref?: string;
  /** The chart row of `object`, when there is one. */
  readonly row?: number;
}

export interface ReportMoment {
  readonly label: string;
  readonly at: number;
  readonly objects: readonly string[];
  /** Row indices of `objects` (every object named by a moment has a row, empty if need be). */
  readonly rows: readonly number[];
}

export interface ReportFinding {
  readonly rule: string;
  readonly ruleStatement?: string;
  readonly severity: Severity;
  readonly summary: string;
  readonly at?: number;
  readonly evidence: readonly ReportEvidence[];
  readonly steps: readonly {
    readonly title: string;
    readonly at?: number;
    readonly evidence: readonly ReportEvidence[];
  }[];
  readonly configDiff?: MachineConfigDiff;
  readonly signature?: Signature;
  readonly moments: readonly ReportMoment[];
  /** Rows the finding concerns, in the order the chart pins them when the finding is selected. */
  readonly rows: readonly number[];
  /** The time window the chart zooms to when the finding is selected. */
  readonly window?: { readonly from: number; readonly to: number };
}

/** A rule's state as analyze concluded it (docs/analyze-json.md): holds, violated or not checked. */
export type ReportRuleState = 'holds' | 'violated' | 'not-checked';

export interface ReportRule {
  readonly id: string;
  readonly statement: string;
  readonly doc: string;
  readonly findings: number;
  /** Absent when the report was built from findings alone, without analyze's outcomes. */
  readonly state?: ReportRuleState;
  /** Why the rule was not checked. */
  readonly reason?: string;
  /** The data it needed and the inputs lack. */
  readonly missing?: readonly string[];
  /** Present when the rule checked only part of the set it judges (docs/analyze-json.md `coverage`). */
  readonly coverage?: ReportCoverage;
}

/** How much of its set a rule checked, as analyze concluded it (invariants/rule.ts Coverage). */
export interface ReportCoverage {
  readonly of: string;
  readonly checked: number;
  readonly total: number;
  readonly notChecked: readonly string[];
  readonly reason: string;
  readonly enough: boolean;
}

/** analyze's verdict (docs/analyze-json.md). */
export type ReportVerdict = 'fail' | 'inconclusive' | 'pass' | 'no-update';

export interface ReportInput {
  readonly path: string;
  readonly reader: string;
  readonly bytes: number;
  readonly contributed: string;
}

export interface ReportData {
  readonly schema: 1;
  readonly title: string;
  readonly generatedFrom: readonly string[];
  /** The time the chart shows when reset; undefined when the inputs hold no time at all. */
  readonly span?: { readonly from: number; readonly to: number };
  readonly inputs: readonly ReportInput[];
  readonly notes: readonly string[];
  readonly rules: readonly ReportRule[];
  /** analyze's verdict; absent when the report was built from findings alone. */
  readonly verdict?: ReportVerdict;
  readonly findings: readonly ReportFinding[];
  readonly groups: readonly ReportGroup[];
  readonly rows: readonly ReportRow[];
  readonly bars: readonly ReportBar[];
  readonly marks: readonly ReportMark[];
  readonly strings: readonly string[];
}

/**
 * The report data as embedded in the page: the same, with bars and marks stored column by column
 * (times relative to `base`, enums as indices). Numbers in arrays cost a few bytes each, against
 * a hundred for an object with named fields; for 100,000 intervals that is most of the page.
 */
export interface PackedReportData extends Omit<ReportData, 'bars' | 'marks'> {
  readonly base: number;
  readonly bars: {
    readonly row: readonly number[];
    readonly from: readonly number[];
    readonly length: readonly number[];
    readonly tone: readonly number[];
    readonly label: readonly number[];
    readonly text: readonly number[];
    readonly file: readonly number[];
    /** -1 for none, here and in `path` and `locator`. */
    readonly line: readonly number[];
    readonly path: readonly number[];
    readonly source: readonly number[];
    /** -1 when the bar has the row's locator. */
    readonly locator: readonly number[];
  };
  readonly marks: {
    readonly row: readonly number[];
    readonly at: readonly number[];
    readonly kind: readonly number[];
    readonly tone: readonly number[];
    readonly text: readonly number[];
    readonly file: readonly number[];
    readonly line: readonly number[];
    readonly path: readonly number[];
    readonly source: readonly number[];
    readonly locator: readonly number[];
    /** The few marks that carry a claim, as [mark index, strings index] pairs; absent when none. */
    readonly claim?: readonly (readonly [number, number])[];
  };
}

export const MARK_KINDS: readonly MarkKind[] = ['version', 'created', 'instant'];
