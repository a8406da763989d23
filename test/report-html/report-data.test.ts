import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Interval, TestLogEntry } from '../../src/model/history.js';
import { emptySnapshot } from '../../src/model/history.js';
import { objectKey } from '../../src/model/index.js';
import { buildReportData, type ReportData, scriptSafeJson } from '../../src/report/html/index.js';
import { packReportData, unpackReportData } from '../../src/report/html/pack.js';
import { testLogItems } from '../../src/report/html/test-log.js';
import { conditionTone, markKindOf, messageText, toneOf } from '../../src/report/html/tones.js';
import { expectGolden } from './golden.js';
import { bugFindings, bugInput, NEW_MASTER, NEW_WORKER, OLD_MASTER, OLD_WORKER, T } from './inputs.js';

const rowOf = (data: ReportData, key: string): number => {
  const i = data.rows.findIndex((r) => r.key === key);
  if (i === -1) throw new Error(`no row ${key}`);
  return i;
};
const str = (data: ReportData, i: number | undefined): string => data.strings[i ?? -1] ?? '';

describe('report data of the bug-2019850 history', () => {
  const data = buildReportData(bugInput());

  it('matches its golden file', () => {
    expectGolden('bug-2019850.report-data.golden.json', `${JSON.stringify(data, null, 2)}\n`);
  });

  it('groups rows by kind, in the order an update touches them', () => {
    expect(data.groups.map((g) => g.id)).toEqual([
      'ClusterVersion',
      'ClusterOperator',
      'MachineConfigPool',
      'MachineConfig',
      'Node',
      'UpgradeTest',
      'KubeEvent',
    ]);
    const flat = data.groups.flatMap((g) => g.rows);
    expect(flat).toEqual(data.rows.map((_, i) => i));
    const labels = (id: string) => data.groups.find((g) => g.id === id)?.rows.map((r) => data.rows[r]?.label);
    expect(labels('MachineConfigPool')).toEqual(['master', 'worker']);
    expect(labels('ClusterOperator')).toEqual([
      'authentication',
      'dns',
      'etcd',
      'kube-apiserver',
      'machine-config',
      'network',
    ]);
    // Rendered configs by creation: the install's, then the two made for the new release.
    expect(labels('MachineConfig')).toEqual([OLD_MASTER, OLD_WORKER, NEW_MASTER, NEW_WORKER]);
    // Control-plane nodes first, each labelled with its roles from the Node objects.
    expect(labels('Node')?.slice(0, 4)).toEqual([
      'ip-10-0-128-10.ec2.internal (master)',
      'ip-10-0-160-21.ec2.internal (master)',
      'ip-10-0-190-32.ec2.internal (master)',
      'ip-10-0-140-43.ec2.internal (worker)',
    ]);
    expect(labels('KubeEvent')).toEqual([
      'clusteroperator/machine-config (openshift-machine-config-operator)',
      'machineconfigpool/master (openshift-machine-config-operator)',
    ]);
  });

  it('draws the master pool updating, amber, from the new config until it finished, past the CVO completion', () => {
    const master = rowOf(data, 'MachineConfigPool/master');
    const updating = data.bars.filter(
      (b) => b.row === master && b.tone === 'progress' && b.locator === undefined,
    );
    expect(updating).toHaveLength(1);
    expect(updating[0]).toMatchObject({ from: T('03:23:11'), to: T('03:35:50') });
    expect(str(data, updating[0]?.label)).toBe('Updating=True');
    expect(str(data, updating[0]?.text)).toMatch(/^condition\/Updating status\/True All nodes are updating/);
    expect(str(data, data.rows[master]?.locator)).toBe('machineconfigpool/master');
    const cvoDone = T('03:28:35');
    expect((updating[0]?.from ?? 0) < cvoDone && (updating[0]?.to ?? 0) > cvoDone).toBe(true);
    const notUpdated = data.bars.filter((b) => b.row === master && b.tone === 'warn');
    expect(notUpdated.map((b) => str(data, b.label))).toEqual(['Updated=False']);
  });

  it('colours conditions by meaning and marks version changes and config creation', () => {
    const auth = rowOf(data, 'ClusterOperator/authentication');
    const bad = data.bars.filter((b) => b.row === auth && b.tone === 'bad');
    expect(bad.map((b) => [b.from, b.to, str(data, b.label)])).toEqual([
      [T('03:10:12'), T('03:10:47'), 'Available=False'],
    ]);
    const mco = rowOf(data, 'ClusterOperator/machine-config');
    expect(
      data.bars.filter((b) => b.row === mco && b.tone === 'warn').map((b) => str(data, b.label)),
    ).toEqual(['Upgradeable=False']);
    const version = data.marks.filter((m) => m.row === mco && m.kind === 'version');
    expect(version.map((m) => m.at)).toEqual([T('03:23:09.856')]);
    const created = data.marks.filter((m) => m.row === rowOf(data, `MachineConfig/${NEW_MASTER}`));
    expect(created).toMatchObject([{ kind: 'created', at: T('03:23:11') }]);
    // The Progressing=False instant is a calm tick; the ClusterVersion history completion gets a version marker.
    expect(data.marks.find((m) => m.row === mco && m.at === T('03:23:10.428'))).toMatchObject({
      kind: 'instant',
      tone: 'ok',
    });
    const cv = rowOf(data, 'ClusterVersion/version');
    const cvVersions = data.marks
      .filter((m) => m.row === cv && m.kind === 'version')
      .map((m) => [m.at, str(data, m.text)]);
    expect(cvVersions).toContainEqual([
      T('03:28:35'),
      'history: 4.10.0-0.nightly-2021-11-03-020416 completed',
    ]);
    expect(cvVersions).toContainEqual([
      T('03:28:35.480'),
      'cluster reached 4.10.0-0.nightly-2021-11-03-020416',
    ]);
  });

  it("turns the upgrade test's polls of a pool into one bar on the pool's row, and its other lines into marks", () => {
    const master = rowOf(data, 'MachineConfigPool/master');
    const polled = data.bars.filter((b) => b.row === master && str(data, b.locator) === 'upgrade test');
    expect(polled).toHaveLength(1);
    expect(polled[0]).toMatchObject({ from: T('03:28:36.063'), to: T('03:35:36.063'), tone: 'progress' });
    expect(str(data, polled[0]?.label)).toBe('upgrade test: Updating');
    expect(str(data, polled[0]?.text)).toBe(
      'upgrade test saw pool master: Updated=false, Updating=true, Degraded=false in 15 polls, 03:28:36.063 to 03:35:36.063',
    );
    expect([str(data, polled[0]?.file), polled[0]?.line, polled[0]?.path]).toEqual([
      'examples/bug-2019850/build-log.txt',
      2212,
      undefined,
    ]);
    expect(str(data, polled[0]?.source)).toBe('upgrade test');
    const log = rowOf(data, 'UpgradeTest/upgrade test log');
    expect(data.marks.filter((m) => m.row === log).map((m) => [m.kind, m.tone])).toEqual([
      ['version', 'progress'],
      ['version', 'ok'],
      ['instant', 'info'],
      // origin's invariant violation line: origin's claim, amber while atlevel's verdict is not given.
      ['instant', 'warn'],
      ['instant', 'ok'],
    ]);
    const claimed = data.marks.filter((m) => m.claim !== undefined);
    expect(claimed).toHaveLength(1);
    expect(str(data, claimed[0]?.text)).toBe(
      'origin\'s upgrade test logged "Invariant violation detected: the "master" pool should be updated before the CVO reports available at the new version"',
    );
    expect(str(data, claimed[0]?.claim)).toBe(
      "origin's upgrade test's claim, not atlevel's verdict; atlevel's verdict on the same question (master-pool-updated-before-cvo-complete) is not in this report",
    );
  });

  it("gives origin's invariant line atlevel's own verdict on the same question, red only when atlevel's rule is violated", () => {
    const at = (state: 'holds' | 'violated' | 'not-checked') => {
      const d = buildReportData({
        ...bugInput(),
        outcomes: new Map([
          [
            'master-pool-updated-before-cvo-complete',
            { state, missing: [], ...(state === 'not-checked' ? { reason: 'no pool state' } : {}) },
          ],
        ]),
      });
      const m = d.marks.find((x) => x.claim !== undefined);
      return [
        m?.tone,
        str(d, m?.claim).replace(/^.*question \(master-pool-updated-before-cvo-complete\): /, ''),
      ];
    };
    expect(at('violated')).toEqual(['bad', 'violated: atlevel sees it too']);
    expect(at('holds')).toEqual(['warn', "holds: atlevel's evidence says the rule held"]);
    expect(at('not-checked')).toEqual(['warn', 'not checked: no pool state']);
  });

  it('puts the failure first and gives it its rows, moments and zoom window', () => {
    expect(data.findings.map((f) => f.severity)).toEqual(['failure', 'warning']);
    const f = data.findings[0];
    expect(f?.rows.map((r) => data.rows[r]?.key)).toEqual([
      'ClusterVersion/version',
      'ClusterOperator/machine-config',
      `MachineConfig/${NEW_MASTER}`,
      'MachineConfigPool/master',
    ]);
    expect(f?.moments.map((m) => [m.at, m.rows.map((r) => data.rows[r]?.key)])).toEqual([
      [T('03:28:35'), ['ClusterVersion/version']],
      [T('03:23:09.856'), ['ClusterOperator/machine-config']],
      [T('03:23:11'), [`MachineConfig/${NEW_MASTER}`, 'MachineConfigPool/master']],
      [T('03:35:50'), ['MachineConfigPool/master']],
    ]);
    // The moments span 03:23:09.856–03:35:50; a quarter of that is added on each side.
    const spread = T('03:35:50') - T('03:23:09.856');
    expect(f?.window).toEqual({ from: T('03:23:09.856') - spread / 4, to: T('03:35:50') + spread / 4 });
    expect(f?.ruleStatement).toMatch(/^When the CVO reports an update complete/);
    expect(f?.evidence[2]).toMatchObject({
      object: 'MachineConfigPool/master',
      row: rowOf(data, 'MachineConfigPool/master'),
    });
    expect(f?.evidence[0]?.ref).toBe(
      'examples/bug-2019850/gather-extra/clusterversion.json items[0].status.history[0]',
    );
    expect(f?.configDiff?.changes[0]?.images?.[0]?.component).toBe('pod');
    expect(data.rules.map((r) => [r.id, r.findings])).toEqual([
      ['master-pool-updated-before-cvo-complete', 1],
      ['operator-level-before-required-pool-target', 1],
      ['update-completed', 0],
    ]);
  });

  it('covers the whole history in its span and stores each string once', () => {
    expect(data.span).toEqual({ from: T('02:15:00'), to: T('03:40:00') });
    expect(new Set(data.strings).size).toBe(data.strings.length);
  });
});

describe('report data edge cases', () => {
  it('carries analyze verdict and each rule state, reason and missing data as given; a window is the reset view', () => {
    const base = bugInput();
    const [a, b] = base.rules;
    const data = buildReportData({
      ...base,
      verdict: 'inconclusive',
      outcomes: new Map([
        [a?.id ?? '', { state: 'holds' as const, missing: [] }],
        [
          b?.id ?? '',
          { state: 'not-checked' as const, reason: 'why', missing: ['the rendered MachineConfigs'] },
        ],
      ]),
      window: { from: T('03:00:00'), to: T('03:10:00') },
    });
    expect(data.verdict).toBe('inconclusive');
    expect(data.rules[0]).toMatchObject({ state: 'holds', missing: [] });
    expect(data.rules[1]).toMatchObject({
      state: 'not-checked',
      reason: 'why',
      missing: ['the rendered MachineConfigs'],
    });
    expect(data.rules[2]?.state).toBeUndefined();
    expect(data.span).toEqual({ from: T('03:00:00'), to: T('03:10:00') });
  });

  const history = bugInput().history;

  it('gives an object a finding names an empty row, so its moment has somewhere to be drawn', () => {
    const f = bugFindings()[0];
    if (!f) throw new Error('no finding');
    const data = buildReportData({
      ...bugInput(),
      findings: [
        {
          ...f,
          moments: [{ label: 'gone', at: T('03:00:00'), objects: ['Node/ip-10-0-1-1', 'Widget/thing'] }],
        },
      ],
    });
    const node = rowOf(data, 'Node/ip-10-0-1-1');
    expect(data.rows[node]).toMatchObject({ group: 'Node', label: 'ip-10-0-1-1' });
    expect(str(data, data.rows[node]?.locator)).toBe('node/ip-10-0-1-1');
    expect(data.bars.some((b) => b.row === node)).toBe(false);
    expect(data.groups[data.groups.length - 1]?.id).toBe('Widget');
    expect(data.findings[0]?.moments[0]?.rows).toEqual([node, rowOf(data, 'Widget/thing')]);
  });

  it('has no span, rows or windows when the inputs hold no time', () => {
    const data = buildReportData({
      history: { ...history, intervals: [], testLog: [], span: undefined },
      findings: [],
      rules: [],
      title: 't',
      generatedFrom: [],
    });
    expect(data.span).toBeUndefined();
    expect(data.rows).toEqual([]);
    expect(data.groups).toEqual([]);
  });

  it('draws an interval whose end precedes its start as an instant, and drops one without a start', () => {
    const bad: Interval[] = [
      { ...history.intervals[0]!, from: T('03:00:00'), to: T('02:00:00') },
      { ...history.intervals[0]!, from: Number.NaN, to: T('02:00:00') },
    ];
    const data = buildReportData({
      ...bugInput(),
      findings: [],
      history: { ...history, intervals: bad, testLog: [] },
    });
    expect(data.bars).toEqual([]);
    expect(data.marks.map((m) => m.at)).toEqual([T('03:00:00')]);
  });
});

describe('upgrade test log items', () => {
  const poll = (at: number, pool: string, updated: boolean, updating: boolean): TestLogEntry => ({
    kind: 'pool-status',
    at,
    pool,
    updated,
    updating,
    degraded: false,
    paused: false,
    ref: { file: 'build-log.txt', line: at % 1000 },
  });

  it('merges consecutive polls that saw the same state, per pool, and keeps a lone poll as a mark', () => {
    const items = testLogItems([
      poll(1000, 'master', false, true),
      poll(2000, 'worker', false, true),
      poll(3000, 'master', false, true),
      poll(5000, 'master', false, true),
      poll(7000, 'master', true, false),
      poll(8000, 'worker', true, false),
      poll(9000, 'worker', true, false),
    ]);
    expect(items.map((i) => [i.pool, i.kind, i.from, i.to, i.tone, i.label])).toEqual([
      ['master', 'bar', 1000, 5000, 'progress', 'upgrade test: Updating'],
      ['worker', 'instant', 2000, 2000, 'progress', 'upgrade test: Updating'],
      ['master', 'instant', 7000, 7000, 'ok', 'upgrade test: Updated'],
      ['worker', 'bar', 8000, 9000, 'ok', 'upgrade test: Updated'],
    ]);
    expect(items[0]?.text).toBe(
      'upgrade test saw pool master: Updated=false, Updating=true, Degraded=false in 3 polls, 00:00:01 to 00:00:05',
    );
  });
});

describe('tones', () => {
  it.each([
    ['Available', 'False', 'bad'],
    ['Available', 'True', 'ok'],
    ['Degraded', 'True', 'bad'],
    ['Degraded', 'False', 'ok'],
    ['Failing', 'True', 'bad'],
    ['NodeDegraded', 'True', 'bad'],
    ['RenderDegraded', 'False', 'ok'],
    ['Progressing', 'True', 'progress'],
    ['Progressing', 'False', 'ok'],
    ['Updating', 'True', 'progress'],
    ['Updated', 'False', 'warn'],
    ['Updated', 'True', 'ok'],
    ['Upgradeable', 'False', 'warn'],
    ['Ready', 'False', 'bad'],
    ['Ready', 'Unknown', 'warn'],
    ['DiskPressure', 'True', 'bad'],
    ['RetrievedUpdates', 'False', 'info'],
  ])('%s=%s is %s', (condition, status, tone) => {
    expect(conditionTone(condition, status)).toBe(tone);
  });

  const base: Interval = {
    from: 0,
    to: 1,
    level: 'Info',
    locator: { type: 'Node', keys: { node: 'n' } },
    message: { reason: '', humanMessage: '', annotations: {} },
    source: 'e2e-events',
    ref: { file: 'f' },
  };
  const with_ = (
    over: Partial<Interval> & {
      annotations?: Record<string, string>;
      humanMessage?: string;
      reason?: string;
    },
  ): Interval => ({
    ...base,
    ...over,
    message: {
      reason: over.reason ?? '',
      humanMessage: over.humanMessage ?? '',
      annotations: over.annotations ?? {},
    },
  });

  it('falls back to node phases, then to the level', () => {
    expect(toneOf(with_({ annotations: { phase: 'Drain' } }))).toBe('progress');
    expect(toneOf(with_({ annotations: { phase: 'NotReady' } }))).toBe('bad');
    expect(toneOf(with_({ level: 'Error' }))).toBe('bad');
    expect(toneOf(with_({ level: 'Warning' }))).toBe('warn');
    expect(toneOf(with_({}))).toBe('info');
  });

  it('recognises version changes by their text, annotations or event reason', () => {
    expect(markKindOf(with_({ humanMessage: 'versions: operator a -> b' }))).toBe('version');
    expect(markKindOf(with_({ annotations: { versions: 'operator a -> b' } }))).toBe('version');
    expect(
      markKindOf(with_({ reason: 'OperatorVersionChanged', locator: { type: 'KubeEvent', keys: {} } })),
    ).toBe('version');
    expect(markKindOf(with_({ humanMessage: 'cluster reached 4.10.0' }))).toBe('version');
    expect(
      markKindOf(
        with_({ reason: 'Created', locator: { type: 'MachineConfig', keys: { machineconfig: 'x' } } }),
      ),
    ).toBe('created');
    expect(markKindOf(with_({ humanMessage: 'reached desired config' }))).toBe('instant');
  });

  it("writes messages the way origin's text form does: sorted annotations, then the human message", () => {
    expect(
      messageText(
        with_({
          annotations: { status: 'True', condition: 'Progressing', reason: 'Working' },
          humanMessage: 'Working towards 4.10',
        }),
      ),
    ).toBe('condition/Progressing reason/Working status/True Working towards 4.10');
  });
});

describe('report data properties', () => {
  const types = [
    'ClusterOperator',
    'ClusterVersion',
    'MachineConfigPool',
    'MachineConfig',
    'Node',
    'KubeEvent',
    'Pod',
    'Alert',
  ];
  const keyName = (type: string): string => (type === 'KubeEvent' ? 'pod' : type.toLowerCase());
  const intervalArb = fc
    .record({
      type: fc.constantFrom(...types),
      name: fc.string({ maxLength: 12 }),
      ns: fc.option(fc.constantFrom('openshift-etcd', 'default', '<ns>'), { nil: undefined }),
      from: fc.integer({ min: 1_600_000_000_000, max: 1_600_000_100_000 }),
      length: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 50_000 })),
      condition: fc.option(fc.constantFrom('Available', 'Degraded', 'Progressing', 'Updating', 'Odd'), {
        nil: undefined,
      }),
      status: fc.constantFrom('True', 'False', 'Unknown'),
      level: fc.constantFrom('Info', 'Warning', 'Error') as fc.Arbitrary<Interval['level']>,
      message: fc.string({ maxLength: 30 }),
    })
    .map(
      (r): Interval => ({
        from: r.from,
        to: r.from + r.length,
        level: r.level,
        locator: { type: r.type, keys: { ...(r.ns ? { namespace: r.ns } : {}), [keyName(r.type)]: r.name } },
        message: {
          reason: '',
          humanMessage: r.message,
          annotations: r.condition ? { condition: r.condition, status: r.status } : {},
        },
        source: 'e2e-events',
        ref: { file: 'e2e-events.json', line: r.from % 1000 },
      }),
    );

  const build = (intervals: Interval[]): ReportData =>
    buildReportData({
      history: {
        objects: emptySnapshot(),
        intervals,
        testLog: [],
        releases: {},
        inputs: [],
        span: undefined,
        notes: [],
      },
      findings: [],
      rules: [],
      title: 'p',
      generatedFrom: [],
    });

  it('keeps every interval, on the row of its object, with valid references and sorted bars', () => {
    fc.assert(
      fc.property(fc.array(intervalArb, { maxLength: 60 }), (intervals) => {
        const data = build(intervals);
        expect(data.bars.length + data.marks.length).toBe(intervals.length);
        expect(new Set(data.rows.map((r) => r.key))).toEqual(
          new Set(intervals.map((i) => objectKey(i.locator))),
        );
        const n = data.strings.length;
        for (const b of data.bars) {
          expect(b.row).toBeLessThan(data.rows.length);
          expect(b.to).toBeGreaterThan(b.from);
          for (const s of [b.label, b.text, b.file, b.path ?? 0, b.source, b.locator ?? 0])
            expect(s).toBeLessThan(n);
        }
        for (let i = 1; i < data.bars.length; i++) {
          const a = data.bars[i - 1]!;
          const b = data.bars[i]!;
          expect(a.row < b.row || (a.row === b.row && a.from <= b.from)).toBe(true);
        }
        expect(new Set(data.strings).size).toBe(n);
        expect(data.groups.flatMap((g) => g.rows)).toEqual(data.rows.map((_, i) => i));
        if (intervals.length > 0) {
          expect(data.span?.from).toBe(Math.min(...intervals.map((i) => i.from)));
          expect(data.span?.to).toBe(Math.max(...intervals.map((i) => i.to)));
        }
      }),
    );
  });

  it('packs into columns and unpacks to the same data, through the embedded JSON too', () => {
    fc.assert(
      fc.property(fc.array(intervalArb, { maxLength: 60 }), (intervals) => {
        const data = build(intervals);
        const packed = packReportData(data);
        expect(unpackReportData(packed)).toEqual(data);
        expect(unpackReportData(JSON.parse(scriptSafeJson(packed)))).toEqual(data);
      }),
    );
  });

  it('orders rows the same whatever order the intervals come in', () => {
    fc.assert(
      fc.property(fc.array(intervalArb, { maxLength: 40 }), fc.integer(), (intervals, seed) => {
        const shuffled = [...intervals].sort(
          (a, b) => ((a.from * 31 + seed) % 97) - ((b.from * 31 + seed) % 97),
        );
        expect(build(shuffled).rows.map((r) => r.key)).toEqual(build(intervals).rows.map((r) => r.key));
      }),
    );
  });
});
