/**
 * The text report on a terminal: 80 and 200 columns, every example and detail level. A line may only
 * pass the width when it carries a name that cannot be cut (a pull spec, a URL, a long reason).
 */
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderStatusText, shortDuration, wrap } from '../../src/report/status-text.js';
import { assessStatus } from '../../src/status/index.js';
import { describeFixtures, fixture, OC_STATUS_CASES, projectRoot } from '../helpers/fixtures.js';
import { loadHistory } from '../helpers/load.js';

const EXAMPLES = 'openshift__oc/pkg/cli/admin/upgrade/status/examples';
const CASES = OC_STATUS_CASES;
const DETAILS = ['none', 'all'] as const;
/** A token this long is a name, a link or a pull spec: cutting it would make it useless. */
const UNCUTTABLE = 40;

function overflowing(text: string, width: number): string[] {
  return text
    .split('\n')
    .filter((l) => l.length > width)
    .filter((l) => !l.split(/\s+/).some((token) => token.length >= UNCUTTABLE));
}

const assessed = new Map<string, ReturnType<typeof assessStatus>>();

/** Each snapshot is read once, however many widths and detail levels render it. */
async function statusOf(path: string) {
  let status = assessed.get(path);
  if (!status) {
    status = assessStatus(await loadHistory([path]));
    assessed.set(path, status);
  }
  return status;
}

function checkWidths(path: () => string): void {
  for (const width of [80, 200]) {
    for (const details of DETAILS) {
      it(`fits ${width} columns with --details=${details}`, async () => {
        const text = renderStatusText(await statusOf(path()), { width, details, colour: false });
        expect(overflowing(text, width)).toEqual([]);
        expect(text.split('\n').every((l) => l === l.trimEnd())).toBe(true);
      });
    }
  }
}

describeFixtures('text output on the oc examples', () => {
  describe.each(CASES)('%s', (name) => checkWidths(() => fixture(EXAMPLES, name)));

  it('at 200 columns a node is one row, as in oc', async () => {
    const text = renderStatusText(await statusOf(fixture(EXAMPLES, '4.16.0-compact')), {
      width: 200,
      details: 'none',
      colour: false,
    });
    expect(text).toContain(
      'ip-10-0-27-170.us-west-1.compute.internal   Outdated     Pending   4.16.0-0.nightly-2024-08-01-082745   ?',
    );
    expect(text).toContain('Duration:        28m (Est. Time Remaining: 30m)');
    expect(text).not.toContain('= Worker Upgrade =');
  });

  it('at 80 columns a long row puts the node name on its own line, the rest beneath it', async () => {
    const text = renderStatusText(await statusOf(fixture(EXAMPLES, '4.16.0-compact')), {
      width: 80,
      details: 'none',
      colour: false,
    });
    expect(text).toContain(
      'ip-10-0-27-170.us-west-1.compute.internal\n  Outdated     Pending   4.16.0-0.nightly-2024-08-01-082745',
    );
  });

  it('a blocked update gives oc time left and says what blocks it', async () => {
    const text = renderStatusText(await statusOf(fixture(EXAMPLES, '4.14.1-degraded')), {
      width: 200,
      details: 'none',
      colour: false,
    });
    expect(text).toContain('Assessment:      Stalled');
    expect(text).toContain('Duration:        1h59m (Est. Time Remaining: N/A; estimate duration was 1h24m)');
    expect(text).toContain(
      'Blocked by:      ClusterVersion is Failing (ClusterOperatorsDegraded): Cluster operators etcd, kube-apiserver are degraded',
    );
    expect(text).toContain('58m38s    Error     API Availability   Cluster Operator etcd is degraded');
  });

  it('--details=operators shows multi-line messages as oc does', async () => {
    const text = renderStatusText(await statusOf(fixture(EXAMPLES, '4.16.0-single-node')), {
      width: 200,
      details: 'operators',
      colour: false,
    });
    expect(text).toContain(
      'kube-apiserver   2m      NodeInstaller::Pe...   NodeInstallerProgressing: 1 node is at revision 8; 0 nodes have achieved new revision 10\n' +
        '                                                Test line breaks\n' +
        '                                                New line\n',
    );
  });

  it('colour only where asked, and widths stay right with it', async () => {
    const status = await statusOf(fixture(EXAMPLES, '4.14.1-paused-worker-pool'));
    const plain = renderStatusText(status, { width: 80, details: 'none', colour: false });
    const coloured = renderStatusText(status, { width: 80, details: 'none', colour: true });
    expect(plain).not.toMatch(/\u001b\[/);
    expect(coloured).toMatch(/\u001b\[/);
    expect(coloured.replace(/\u001b\[[0-9;]*m/g, '')).toBe(plain);
  });
});

describe('text output on the hand-made snapshots', () => {
  for (const name of ['drain-blocked', 'not-accepted']) {
    describe(name, () => checkWidths(() => join(projectRoot, 'test/fixtures/status', name)));
  }
});

describe('layout helpers', () => {
  it('shortDuration prints what Go prints for whole seconds', () => {
    expect(
      [0, 999, 6000, 89_000, 28 * 60_000, 3_617_000, 7_140_000, 7_200_000, -720_000].map(shortDuration),
    ).toEqual(['now', 'now', '6s', '1m29s', '28m', '1h0m17s', '1h59m', '2h', '-12m']);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10 * 24 * 3600 }), (seconds) => {
        const m = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(shortDuration(seconds * 1000));
        expect(m).not.toBeNull();
        const [h, min, s] = [m?.[1], m?.[2], m?.[3]].map((x) => Number(x ?? 0));
        expect((h ?? 0) * 3600 + (min ?? 0) * 60 + (s ?? 0)).toBe(seconds);
      }),
    );
  });

  it('wrap keeps every word, in order, and no line is wider than asked unless one word is', () => {
    const word = fc.stringMatching(/^[a-z:./-]{1,30}$/);
    fc.assert(
      fc.property(
        fc.array(word, { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 10, max: 100 }),
        (words, width) => {
          const lines = wrap(words.join(' '), width);
          expect(lines.join(' ').split(' ').join('')).toBe(words.join(''));
          for (const line of lines) {
            if (line.length > width) expect(line.includes(' ')).toBe(false);
          }
        },
      ),
    );
  });
});
