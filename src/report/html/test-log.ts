import type { SourceRef, TestLogEntry } from '../../model/index.js';
import { formatClock } from '../../model/index.js';
import type { MarkKind, Tone } from './report-data-types.js';

/** A line (or a run of lines) of the upgrade test's log, ready to be drawn. */
export interface TestLogItem {
  /** Set for the test's polls of a pool: they go on that pool's row. */
  readonly pool?: string;
  readonly from: number;
  readonly to: number;
  /** `bar` for a run of identical polls; otherwise the marker kind. */
  readonly kind: MarkKind | 'bar';
  readonly tone: Tone;
  readonly label: string;
  readonly text: string;
  readonly ref: SourceRef;
  /**
   * Set on a line that asserts a verdict of origin's own (its upgrade invariant, docs/domain.md 6):
   * the atlevel rule that answers the same question, whose outcome report-data.ts puts beside it.
   */
  readonly claimOf?: string;
}

/** The rule that checks origin's upgrade invariant (invariants/master-pool-updated-before-cvo-complete.ts). */
const ORIGIN_INVARIANT_RULE = 'master-pool-updated-before-cvo-complete';

type PoolStatus = Extract<TestLogEntry, { kind: 'pool-status' }>;

/**
 * The upgrade test's log as chart items. The test polls each pool every few seconds while it waits;
 * consecutive polls that saw the same state become one bar spanning them (first to last poll), so a
 * pool the test watched updating for seven minutes reads as one amber bar, not forty ticks.
 */
export function testLogItems(entries: readonly TestLogEntry[]): TestLogItem[] {
  const out: TestLogItem[] = [];
  const polls = new Map<string, PoolStatus[]>();
  for (const e of entries) {
    if (e.kind === 'pool-status') {
      const list = polls.get(e.pool) ?? [];
      list.push(e);
      polls.set(e.pool, list);
    } else {
      out.push(lineItem(e));
    }
  }
  for (const list of polls.values()) {
    const sorted = [...list].sort((a, b) => a.at - b.at);
    let run: PoolStatus[] = [];
    const flush = (): void => {
      const first = run[0];
      const last = run[run.length - 1];
      if (first && last) out.push(pollItem(first, last, run.length));
      run = [];
    };
    for (const p of sorted) {
      const head = run[0];
      if (head && stateOf(head) !== stateOf(p)) flush();
      run.push(p);
    }
    flush();
  }
  return out.sort((a, b) => a.from - b.from || a.to - b.to);
}

function stateOf(p: PoolStatus): string {
  return `Updated=${p.updated}, Updating=${p.updating}, Degraded=${p.degraded}${p.paused ? ', paused' : ''}`;
}

function pollItem(first: PoolStatus, last: PoolStatus, count: number): TestLogItem {
  const tone: Tone = first.degraded ? 'bad' : first.updating ? 'progress' : first.updated ? 'ok' : 'warn';
  const word = first.degraded
    ? 'Degraded'
    : first.updating
      ? 'Updating'
      : first.updated
        ? 'Updated'
        : 'not updated';
  const seen = `upgrade test saw pool ${first.pool}: ${stateOf(first)}`;
  const many = count > 1;
  return {
    pool: first.pool,
    from: first.at,
    to: last.at,
    kind: many ? 'bar' : 'instant',
    tone,
    label: `upgrade test: ${word}`,
    text: many ? `${seen} in ${count} polls, ${formatClock(first.at)} to ${formatClock(last.at)}` : seen,
    ref: first.ref,
  };
}

function lineItem(e: Exclude<TestLogEntry, PoolStatus>): TestLogItem {
  const at = { from: e.at, to: e.at, ref: e.ref };
  switch (e.kind) {
    case 'upgrade-started':
      return {
        ...at,
        kind: 'version',
        tone: 'progress',
        label: 'started',
        text: `Started upgrade to ${e.target}`,
      };
    case 'upgrade-completed':
      return {
        ...at,
        kind: 'version',
        tone: 'ok',
        label: 'completed',
        text: `Completed upgrade to ${e.target}`,
      };
    case 'waiting-on-pools':
      return {
        ...at,
        kind: 'instant',
        tone: 'info',
        label: 'waiting',
        text: 'Waiting on pools to be upgraded',
      };
    case 'invariant-violation':
      return {
        ...at,
        kind: 'instant',
        tone: 'bad',
        label: "origin's invariant violation",
        // The test's words, quoted as the text report quotes them: origin's claim, not atlevel's.
        text: `origin's upgrade test logged "Invariant violation detected: ${e.text}"`,
        claimOf: ORIGIN_INVARIANT_RULE,
      };
    case 'pools-completed':
      return {
        ...at,
        kind: 'instant',
        tone: 'ok',
        label: 'pools completed',
        text: 'All pools completed upgrade',
      };
    case 'cluster-upgrade-condition':
      return {
        ...at,
        kind: 'instant',
        tone: 'warn',
        label: e.condition,
        text: `${e.condition}: ${e.message}`,
      };
  }
}
