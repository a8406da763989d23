/**
 * `atlevel simulate` for a terminal: for one run, the verdict and the race's key moments; for an
 * exploration, how many runs (or interleavings) broke the invariant and how to reproduce the first.
 */
import type { ArtifactsInfo, RunSummary, RunVerdict, SimulateOutcome } from '../sim/index.js';
import { type Colours, colours, plural, wrap } from './text.js';

/** `2021-11-03T03:16:40.686Z` → `03:16:40.686`. */
function clock(iso: string | null): string {
  return iso === null ? '—' : iso.slice(11, 23);
}

function gap(fromIso: string | null, toIso: string | null): string {
  if (fromIso === null || toIso === null) return '';
  const ms = Date.parse(toIso) - Date.parse(fromIso);
  const abs = Math.abs(ms);
  const text =
    abs < 1000
      ? `${abs}ms`
      : abs < 60_000
        ? `${(abs / 1000).toFixed(1)}s`
        : `${Math.floor(abs / 60_000)}m${String(Math.round((abs % 60_000) / 1000)).padStart(2, '0')}s`;
  return ms >= 0 ? `${text} after` : `${text} before`;
}

function pct(n: number, of: number): string {
  return of === 0 ? '0%' : `${((100 * n) / of).toFixed(1)}%`;
}

/**
 * The runs (or interleavings) that broke the invariant, and those that did not: `3 of 10 runs (30.0%)`
 * and `none of 10 runs`, but `the one run` when there was one ("1 of 1 runs" reads as a slip).
 */
function broke(n: number, total: number, noun: string): string {
  if (total === 1) return `the one ${noun} ${n > 0 ? 'broke' : 'did not break'} the invariant`;
  return n > 0
    ? `${n} of ${total} ${noun}s (${pct(n, total)}) broke the invariant`
    : `none of ${total} ${noun}s broke the invariant`;
}

/** What the upgrade test made of the violating runs. */
function caught(detected: number, violations: number): string {
  if (violations === 1)
    return detected > 0 ? 'the upgrade test caught it' : 'the upgrade test did not catch it';
  return `the upgrade test caught ${detected} of them`;
}

function header(o: SimulateOutcome, c: Colours, what: string): string[] {
  return [
    `${c.bold('atlevel simulate')}  ${what}`,
    `  ${c.dim(o.description)}`,
    `  ${c.dim(`policy: ${o.policySummary}`)}`,
  ];
}

function timeline(s: RunSummary, c: Colours): string[] {
  const rows: [string | null, string][] = [];
  rows.push([s.upgradeRequestedAt, 'upgrade requested (spec.desiredUpdate set by the upgrade test)']);
  rows.push([
    s.controllerConfigWrittenAt,
    'machine-config-operator wrote the new ControllerConfig (the race begins)',
  ]);
  rows.push([s.operatorLevelAt, `machine-config reported level (operator ${s.to})`]);
  for (const r of s.renderedConfigs) {
    const what = r.created ? `${r.name} created` : `${r.name} re-stamped for the new release (same content)`;
    // A config rendered after a day-2 change is that change's rollout, not the update's.
    const later = s.day2At !== null && r.at >= s.day2At;
    rows.push([
      r.at,
      later
        ? `${what}: a later rollout (the administrator's change after the update, not part of it)`
        : `${what}${s.operatorLevelAt ? `, ${gap(s.operatorLevelAt, r.at)} the level report` : ''}`,
    ]);
  }
  for (const a of s.administratorActions) rows.push([a.at, `administrator: ${a.text}`]);
  if (s.firstUpdateCompletedAt !== null)
    rows.push([s.firstUpdateCompletedAt, 'CVO completed the first of the two updates in this run']);
  rows.push([s.cvoCompletedAt, `CVO completed the update to ${s.to}`]);
  if (s.violationAt !== null)
    rows.push([s.violationAt, c.red('master pool Updating=True after the CVO completed')]);
  for (const v of s.operandViolations) {
    rows.push([
      v.at,
      c.red(`${v.operator} reported level while ${v.workload} had ${v.updated}/${v.desired} updated`),
    ]);
    if (v.rolledOutAt !== null) rows.push([v.rolledOutAt, `${v.workload} rolled out`]);
  }
  for (const d of s.operatorDegraded)
    rows.push([d.at, c.yellow(`machine-config Degraded: ${d.message.slice(0, 140)}`)]);
  if (s.masterUpdatedAt !== null) {
    rows.push([
      s.masterUpdatedAt,
      `master pool Updated on its new config${s.cvoCompletedAt ? ` (${gap(s.cvoCompletedAt, s.masterUpdatedAt)} the CVO completed)` : ''}`,
    ]);
  }
  if (s.poolsCompletedAt !== null)
    rows.push([s.poolsCompletedAt, 'upgrade test: All pools completed upgrade']);
  return datedTimeline(rows);
}

/** A run's moments in time order under their day (UTC); a moment the run did not reach is left out. */
function datedTimeline(rows: readonly (readonly [string | null, string])[]): string[] {
  const dated = rows
    .filter((r): r is readonly [string, string] => r[0] !== null)
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const day = dated[0]?.[0].slice(0, 10) ?? '';
  return [`  timeline (${day}, UTC)`, ...dated.map(([at, text]) => `    ${clock(at)}  ${text}`)];
}

// The lines the timed and the hosted model share.

/** After one run: where its artifacts went and the command that runs it again. */
function runFooter(o: { artifacts: ArtifactsInfo | null; reproduce: string }): string[] {
  return [
    ...(o.artifacts ? [`  artifacts: ${o.artifacts.dir} (${plural(o.artifacts.files, 'file')})`] : []),
    `  reproduce: ${o.reproduce}`,
  ];
}

interface SeedCounts {
  readonly scenario: string;
  readonly policy: string;
  readonly firstSeed: number;
  readonly runs: number;
  readonly violations: number;
  readonly firstViolatingSeed: number | null;
}

/** An exploration's title (`seed 3` or `seeds 1–100`) and a blank line. */
function seedsHeader(o: SimulateOutcome, c: Colours, e: SeedCounts): string[] {
  const seeds = e.runs === 1 ? `seed ${e.firstSeed}` : `seeds ${e.firstSeed}–${e.firstSeed + e.runs - 1}`;
  return [...header(o, c, `${e.scenario} · policy ${e.policy} · ${seeds}`), ''];
}

/** What the runs broke (`violating`, asked only when some run did) and the first violating seed, or OK. */
function seedsVerdict(e: SeedCounts, c: Colours, violating: () => string): string[] {
  return e.violations > 0
    ? [`${c.red(c.bold('VIOLATIONS'))}  ${violating()}`, `  first violating seed: ${e.firstViolatingSeed}`]
    : [`${c.green(c.bold('OK'))}  ${broke(0, e.runs, 'run')}`];
}

/** After an exploration: the first violating seed's artifacts, the command that reproduces it, the pace. */
function seedsFooter(
  o: { artifacts: ArtifactsInfo | null; reproduce: string | null; elapsedMs: number },
  runs: number,
  c: Colours,
): string[] {
  const out: string[] = [];
  if (o.artifacts)
    out.push(
      `  artifacts of seed ${o.artifacts.seed}: ${o.artifacts.dir} (${plural(o.artifacts.files, 'file')})`,
    );
  if (o.reproduce) out.push(`  reproduce: ${o.reproduce}`);
  const secs = o.elapsedMs / 1000;
  out.push(c.dim(`  ${secs.toFixed(1)}s, ${(runs / Math.max(secs, 1e-3)).toFixed(0)} runs/s`));
  return out;
}

/** The model's record of an operator that reported level before a workload it manages rolled out. */
function operandLine(v: RunSummary['operandViolations'][number], c: Colours): string {
  const finished =
    v.rolledOutAt !== null
      ? `; it rolled out at ${clock(v.rolledOutAt)}, ${((Date.parse(v.rolledOutAt) - Date.parse(v.at)) / 1000).toFixed(1)}s later`
      : '; it had not rolled out when the run ended';
  return `${c.red(c.bold('VIOLATION'))}  ${v.operator} reported level ${v.version} while ${v.workload} had ${v.updated} of ${v.desired} replicas updated and ${v.available} available${finished}`;
}

/** The run's verdict: analyze's verdict on the artifacts the run wrote (sim/summary.ts RunVerdict). */
function verdictLine(v: RunVerdict, c: Colours): string {
  const why = "analyze's verdict on the run it wrote";
  switch (v.verdict) {
    case 'fail':
      return `${c.red(c.bold('FAIL'))}  ${why}: ${v.violated.join(', ')} violated`;
    case 'inconclusive': {
      // analyze's two reasons, in its words (report/analyze-text.ts): not checked, held on too little.
      const reasons = [
        ...(v.notChecked.length > 0 ? [`${v.notChecked.join(', ')} could not be checked`] : []),
        ...(v.thin.length > 0
          ? [
              `${v.thin.map((t) => `${t.rule} (${t.checked} of ${t.total} ${t.of})`).join(', ')} held on too little of what ${v.thin.length === 1 ? 'it applies' : 'they apply'} to`,
            ]
          : []),
      ];
      return `${c.yellow(c.bold('INCONCLUSIVE'))}  ${why}: ${reasons.join(' and ')}`;
    }
    case 'no-update':
      return `${c.bold('NO UPDATE')}  ${why}: the run shows no update`;
    default:
      // The standalone rules do not apply to a hosted run, nor the hosted rules to a standalone one.
      return `${c.green(c.bold('PASS'))}  ${why}: every invariant that applies held`;
  }
}

export function renderSimulationText(o: SimulateOutcome, opts: { colour: boolean; width?: number }): string {
  const c = colours(opts.colour);
  const out: string[] = [];
  switch (o.mode) {
    case 'run': {
      const s = o.summary;
      const schedule = o.schedule ? ` · schedule ${o.schedule.join(',') || '(time order)'}` : '';
      out.push(...header(o, c, `${s.scenario} · policy ${s.policy} · seed ${s.seed}${schedule}`));
      out.push(`  update ${s.from} → ${s.to}`);
      out.push(`  changed components: ${s.changedComponents.join(', ') || 'none'}`);
      out.push('');
      out.push(verdictLine(o.verdict, c));
      if (s.violated) {
        out.push(
          `${c.red(c.bold('VIOLATION'))}  the master pool was still rolling out when the CVO reported the update complete`,
        );
        out.push(
          s.testDetected
            ? '           the upgrade test logged: Invariant violation detected'
            : '           the upgrade test missed it (it polled the pools before the master pool flipped to Updating)',
        );
      } else if (!s.renderedConfigs.some((r) => r.pool === 'master' && r.created)) {
        // Nothing that reaches a rendered config changed: there was no new config to roll out.
        out.push(
          `${c.green(c.bold('OK'))}  the master pool got no new rendered config in this update, so there was nothing to roll out before the CVO reported the update complete`,
        );
      } else {
        out.push(
          `${c.green(c.bold('OK'))}  the master pool had rolled out its new config before the CVO reported the update complete`,
        );
      }
      for (const v of s.operandViolations) out.push(operandLine(v, c));
      if (s.testFailure !== null && !s.violated) out.push(`           upgrade test failed: ${s.testFailure}`);
      if (s.raceMarginMs !== null && s.raceMarginMs > 0) {
        out.push(
          `           machine-config reported level ${(s.raceMarginMs / 1000).toFixed(1)}s before the master pool targeted the new config`,
        );
      }
      out.push('', ...timeline(s, c), '', ...runFooter(o));
      break;
    }
    case 'seeds': {
      const e = o.exploration;
      out.push(...seedsHeader(o, c, e));
      out.push(
        ...seedsVerdict(e, c, () => {
          // The upgrade test watches the pools only: it cannot catch an operator's early level report.
          const poolRuns = e.violations - e.operandViolations;
          const parts = [broke(e.violations, e.runs, 'run')];
          if (e.operandViolations > 0)
            parts.push(
              `in ${e.operandViolations === e.violations ? (e.violations === 1 ? 'it' : 'every one') : `${e.operandViolations} of them`} an operator reported level before its operand rolled out`,
            );
          if (poolRuns > 0 || e.detectedByTest > 0) parts.push(caught(e.detectedByTest, e.violations));
          return parts.join('; ');
        }),
      );
      const other: string[] = [];
      if (e.otherTestFailures > 0)
        other.push(`${e.otherTestFailures} failed the upgrade test for another reason`);
      if (e.operatorDegraded > 0)
        other.push(`${e.operatorDegraded} had machine-config Degraded at some point`);
      if (e.cvoIncomplete > 0) other.push(`${e.cvoIncomplete} never completed the update`);
      if (other.length > 0) out.push(`  also: ${other.join('; ')}`);
      out.push(...seedsFooter(o, e.runs, c));
      break;
    }
    case 'hosted-run': {
      const s = o.summary;
      out.push(...header(o, c, `${s.scenario} · policy ${s.policy} · seed ${s.seed}`));
      out.push(`  NodePool ${s.nodePool} (${s.upgradeType}) ${s.from} → ${s.to}`, '');
      out.push(verdictLine(o.verdict, c));
      if (s.violated) {
        out.push(
          `${c.red(c.bold('VIOLATION'))}  the NodePool reported ${s.to} before its rollout ended${s.earlyByMs !== null ? ` (${(s.earlyByMs / 1000).toFixed(1)}s early)` : ''}`,
        );
        for (const p of s.stillRolling) out.push(`           ${p}`);
      } else if (s.levelAt === null) {
        out.push(`${c.yellow(c.bold('NO LEVEL'))}  the NodePool never reported ${s.to} in the run`);
      } else {
        out.push(`${c.green(c.bold('OK'))}  the NodePool reported ${s.to} once its rollout had ended`);
      }
      const rows: [string | null, string][] = [
        [s.requestedAt, `NodePool spec.release set to ${s.to}`],
        [
          s.payloadGeneratedAt,
          'NodePool controller: ValidGeneratedPayload=True (new user-data/token Secrets)',
        ],
        [
          s.templateChangedAt,
          s.upgradeType === 'Replace'
            ? 'MachineDeployment template points at the new user-data'
            : 'MachineSet nodePoolTargetConfigVersion moved',
        ],
        ...s.machinesCreated.map((m): [string, string] => [m.at, `Machine ${m.name} created`]),
        ...s.machinesDeleted.map((m): [string, string] => [m.at, `Machine ${m.name} gone`]),
        ...s.nodesUpdatedInPlace.map((m): [string, string] => [m.at, `Node ${m.name} updated in place`]),
        [s.levelAt, `NodePool status.version = ${s.to}, UpdatingVersion=False`],
        [s.rolloutEndedAt, 'rollout ended (every condition of nodepool-level-before-rollout held)'],
        [
          s.dumpAt,
          `the e2e test's hypershift dump${s.violated ? (s.visibleAtDump ? ' (it shows the NodePool at level mid-rollout)' : ' (after the rollout ended: it cannot show the early report)') : ''}`,
        ],
      ];
      out.push('', ...datedTimeline(rows), '', ...runFooter(o));
      break;
    }
    case 'hosted-seeds': {
      const e = o.exploration;
      out.push(...seedsHeader(o, c, e));
      out.push(
        ...seedsVerdict(
          e,
          c,
          () =>
            `${broke(e.violations, e.runs, 'run')}: the NodePool reported level before its rollout ended${e.medianEarlyMs !== null ? ` (median ${(e.medianEarlyMs / 1000).toFixed(1)}s early)` : ''}`,
        ),
      );
      if (e.neverLevel > 0) out.push(`  also: ${e.neverLevel} never reported level`);
      out.push(...seedsFooter(o, e.runs, c));
      break;
    }
    case 'model-check': {
      const k = o.check;
      out.push(
        ...header(
          o,
          c,
          `${k.scenario} · policy ${k.policy} · every interleaving of every controller's steps`,
        ),
        '',
      );
      out.push(
        `  ${plural(k.states, 'state')} visited${k.complete ? ' (complete)' : k.stoppedBy === 'budget' ? ' (budget exhausted: incomplete)' : ' (stopped at the first violation: incomplete; --keep-going searches on)'}, ${plural(k.transitions, 'transition')}, ${plural(k.terminalStates, 'distinct terminal state')}${k.incompleteTerminalStates > 0 ? ` (${k.incompleteTerminalStates} with the update not completed)` : ''}; up to ${plural(k.maxDepth, 'step')} deep, ${plural(k.maxBranching, 'step')} enabled at once`,
      );
      const names = Object.keys(k.violatingStates);
      if (names.length > 0) {
        out.push(
          k.complete
            ? `${c.red(c.bold('VIOLATIONS'))}  ${names.map((n) => `${n} in ${plural(k.violatingStates[n] ?? 0, 'state')}`).join(', ')}; ${plural(k.violatingTerminalStates, 'terminal state')} of ${k.terminalStates} broke an invariant on the way`
            : `${c.red(c.bold('VIOLATIONS'))}  ${names.map((n) => `${n} in ${plural(k.violatingStates[n] ?? 0, 'state')}`).join(', ')} (of those visited)`,
        );
        if (k.firstViolatingSchedule)
          out.push(
            `  first violating schedule (${plural(k.firstViolatingSchedule.length, 'step')}, breaks ${k.firstViolation.join(', ')}):`,
            ...k.firstViolatingSchedule.map((step, i) => `    ${String(i + 1).padStart(3)}. ${step}`),
          );
      } else {
        out.push(
          `${c.green(c.bold('OK'))}  no reachable state breaks the invariants (mco-race, operator-level-before-operands)${k.complete ? '' : ' (of those visited)'}`,
        );
      }
      if (o.reproduce) out.push(`  reproduce: ${o.reproduce}`);
      out.push(
        c.dim(
          `  ${(k.elapsedMs / 1000).toFixed(1)}s, ${(k.states / Math.max(k.elapsedMs / 1000, 1e-3)).toFixed(0)} states/s`,
        ),
      );
      break;
    }
    case 'model-replay': {
      const r = o.replay;
      out.push(
        ...header(o, c, `${r.scenario} · policy ${r.policy} · schedule of ${plural(r.steps, 'step')}`),
        '',
      );
      out.push(
        ...r.trace.map(
          (line, i) =>
            `  ${String(i + 1).padStart(3)}. ${i === r.steps ? c.dim('(then the first enabled step each time) ') : ''}${line}`,
        ),
      );
      out.push(
        r.violations.length > 0
          ? `${c.red(c.bold('VIOLATION'))}  the schedule breaks ${r.violations.join(', ')}`
          : `${c.green(c.bold('OK'))}  the schedule breaks no invariant`,
      );
      if (r.laterViolations.length > 0)
        out.push(
          `  running on from there, the first enabled step each time also breaks ${r.laterViolations.join(', ')}`,
        );
      if (!r.completed)
        out.push('  the update did not complete (no step is enabled and the CVO has not completed it)');
      break;
    }
    case 'exhaustive': {
      const e = o.exploration;
      out.push(
        ...header(
          o,
          c,
          `${e.scenario} · policy ${e.policy} · seed ${e.seed} · every interleaving of the race window`,
        ),
        '',
      );
      out.push(
        `  ${plural(e.schedules, 'interleaving')} run${e.complete ? ' (complete)' : ' (budget exhausted: incomplete)'}; ${plural(e.pruned, 'redundant prefix', 'redundant prefixes')} pruned; up to ${plural(e.maxSteps, 'step')}, ${plural(e.maxCandidates, 'choice')} per step`,
      );
      if (e.violations > 0) {
        out.push(`${c.red(c.bold('VIOLATIONS'))}  ${broke(e.violations, e.schedules, 'interleaving')}`);
      } else {
        out.push(
          `${c.green(c.bold('OK'))}  ${broke(0, e.schedules, 'interleaving')}${e.complete ? '' : ' (of those explored)'}`,
        );
      }
      if (o.artifacts)
        out.push(`  artifacts of that schedule: ${o.artifacts.dir} (${plural(o.artifacts.files, 'file')})`);
      if (o.reproduce) out.push(`  reproduce: ${o.reproduce}`);
      out.push(c.dim(`  ${(o.elapsedMs / 1000).toFixed(1)}s`));
      break;
    }
  }
  const width = opts.width ?? Number.POSITIVE_INFINITY;
  // Every line wraps to the width, a continuation indented under the line's own text.
  const wrapped = out.flatMap((line) => wrap(line, width, (/^ */.exec(line)?.[0].length ?? 0) + 2));
  return `${wrapped.join('\n')}\n`;
}
