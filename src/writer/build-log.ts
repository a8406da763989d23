/**
 * The test step's part of a CI build log, laid out as openshift-tests prints it: the producer's header
 * lines, the test's log lines (docs/domain.md 6) and its result, then the monitor timeline (7.1, 7.2).
 */
import { type MonitorRecord, monitorLine, sortedRecords, testLogLine } from '../artifacts/index.js';

interface TestResult {
  /** The test's full name, e.g. `[sig-arch][Feature:ClusterUpgrade] Cluster should remain functional ...`. */
  readonly name: string;
  /** Its framework.Logf lines, wall ms. */
  readonly lines: ReadonlyArray<{ readonly at: number; readonly text: string }>;
  readonly minutes: number;
  /** When it failed: where (`file.go:line`), what it was doing and the error it printed. */
  readonly failure?: { readonly location: string; readonly context: string; readonly error: string };
}

export interface BuildLogSpec {
  readonly header: readonly string[];
  readonly test?: TestResult;
  readonly monitor: readonly MonitorRecord[];
  readonly footer?: readonly string[];
}

export function buildLogText(spec: BuildLogSpec): string {
  const lines = [...spec.header];
  const test = spec.test;
  if (test) {
    lines.push(`started: (0/1/1) "${test.name}"`, '', ...test.lines.map((t) => testLogLine(t.at, t.text)));
    if (test.failure) {
      const f = test.failure;
      lines.push(
        `fail [${f.location}]: ${f.context}`,
        'Unexpected error:',
        '    <*errors.errorString | 0xc0027f5d80>: {',
        `        s: ${JSON.stringify(f.error)},`,
        '    }',
        `    ${f.error}`,
        'occurred',
        '',
        `failed: (${test.minutes}m) "${test.name}"`,
      );
    } else {
      lines.push('', `passed: (${test.minutes}m) "${test.name}"`);
    }
  }
  lines.push('', 'Timeline:', '', sortedRecords(spec.monitor).map(monitorLine).join('\n'));
  if (spec.footer) lines.push('', ...spec.footer);
  return `${lines.join('\n')}\n`;
}
