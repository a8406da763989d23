/**
 * The operators built on openshift/library-go record their level reports as `OperatorVersionChanged`
 * Events about their own Deployment (`clusteroperator/etcd version "operator" changed from "A" to
 * "B"`; src/timeline/version-events.ts), so a snapshot dates their reports as it dates the
 * machine-config operator's. Fixture (test/fixtures/README.md): `library-go-level-reports/` is
 * `day2-kubeletconfig-after-update/` with the Events six such operators recorded in that update, at
 * the times the run's monitor saw their reports (examples/bug-2019850-fixed/build-log.txt).
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type AnalysisResult, analyzeHistory } from '../../src/analyze/index.js';
import { operatorLevelFor } from '../../src/invariants/index.js';
import { renderAnalysisText } from '../../src/report/analyze-text.js';
import { findUpdates } from '../../src/timeline/index.js';
import { projectRoot } from '../helpers/fixtures.js';
import { loadHistory } from '../helpers/load.js';

const DIR = join(projectRoot, 'test/fixtures/analyze');
const BEFORE = join(DIR, 'day2-kubeletconfig-after-update');
const LGO = join(DIR, 'library-go-level-reports');
const RULE = 'clusteroperator-level-then-progressing';
const FROM = '4.10.0-0.nightly-2021-11-02-191632';
const TO = '4.10.0-0.nightly-2021-11-03-020416';
const LIBRARY_GO = [
  'authentication',
  'etcd',
  'kube-apiserver',
  'kube-controller-manager',
  'kube-scheduler',
  'openshift-apiserver',
];

const outcome = (r: AnalysisResult, id: string) => r.outcomes.find((o) => o.rule.id === id);

/** A copy of LGO with `file`'s JSON changed by `edit`. */
function lgoWith(file: string, edit: (doc: { items: Record<string, unknown>[] }) => void): string {
  const dir = mkdtempSync(join(tmpdir(), 'atlevel-lgo-'));
  cpSync(LGO, dir, { recursive: true });
  const doc = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { items: Record<string, unknown>[] };
  edit(doc);
  writeFileSync(join(dir, file), JSON.stringify(doc));
  return dir;
}

/** A library-go Event as the status controller of `co` records it (see the fixture's). */
function libraryGoEvent(co: string, entry: string, at: string, ns: string, deployment: string) {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    count: 1,
    firstTimestamp: at,
    lastTimestamp: at,
    involvedObject: { apiVersion: 'apps/v1', kind: 'Deployment', name: deployment, namespace: ns },
    message: `clusteroperator/${co} version "${entry}" changed from "${FROM}" to "${TO}"`,
    metadata: { creationTimestamp: at, name: `${deployment}.${Date.parse(at).toString(16)}`, namespace: ns },
    reason: 'OperatorVersionChanged',
    source: { component: `${deployment}-status-controller-statussyncer_${co}` },
    type: 'Normal',
  };
}

async function levelTimes(path: string): Promise<Record<string, string | undefined>> {
  const h = await loadHistory([path]);
  const update = findUpdates(h).at(-1);
  if (!update) throw new Error('no update');
  const out: Record<string, string | undefined> = {};
  for (const co of [...LIBRARY_GO, 'machine-config']) {
    const at = operatorLevelFor(h, co, update)?.at;
    out[co] = at === undefined ? undefined : new Date(at).toISOString();
  }
  return out;
}

describe("a snapshot with library-go's OperatorVersionChanged Events", () => {
  it('dates the level reports of the operators that recorded one: 7 of 29 operators checked, not 1', async () => {
    const before = analyzeHistory(await loadHistory([BEFORE]));
    const after = analyzeHistory(await loadHistory([LGO]));
    expect(outcome(before, RULE)?.coverage).toMatchObject({ checked: 1, total: 29 });
    const o = outcome(after, RULE);
    expect(o?.state).toBe('holds');
    expect(o?.coverage).toMatchObject({ of: 'operators', checked: 7, total: 29, enough: false });
    for (const co of LIBRARY_GO) expect(o?.coverage?.unchecked).not.toContain(co);
    expect(o?.coverage?.unchecked).toContain('dns');
    // Still fewer than half: the holds does not carry a PASS.
    expect(after.verdict).toBe('inconclusive');
    expect(renderAnalysisText(after, { colour: false })).toMatch(
      new RegExp(`✓ ${RULE} +holds for 7 of 29 operators; 22 not checked: no level report time`),
    );
  });

  it('claims nothing else: every other rule reads as without the Events', async () => {
    const before = analyzeHistory(await loadHistory([BEFORE]));
    const after = analyzeHistory(await loadHistory([LGO]));
    const shape = (r: AnalysisResult) =>
      r.outcomes
        .filter((x) => x.rule.id !== RULE)
        .map((x) => ({ id: x.rule.id, state: x.state, findings: x.findings.length, coverage: x.coverage }));
    expect(shape(after)).toEqual(shape(before));
    expect(after.findings).toEqual(before.findings);
  });

  it("dates each report by its Event's first time; the raw-internal entry, changed earlier, is not a level report", async () => {
    expect(await levelTimes(LGO)).toEqual({
      // raw-internal changed at 02:52:17, when the new operator started.
      etcd: '2021-11-03T02:56:26.000Z',
      'kube-apiserver': '2021-11-03T03:02:09.000Z',
      // An events.k8s.io Event listed as core/v1: eventTime only, to the microsecond.
      'kube-controller-manager': '2021-11-03T03:06:19.048Z',
      'kube-scheduler': '2021-11-03T03:04:30.000Z',
      'openshift-apiserver': '2021-11-03T03:11:54.000Z',
      // Recorded twice (count 2, last at 03:14:56): the first is the report.
      authentication: '2021-11-03T03:14:54.000Z',
      'machine-config': '2021-11-03T03:28:56.000Z',
    });
    const before = await levelTimes(BEFORE);
    for (const co of LIBRARY_GO) expect(before[co], co).toBeUndefined();
  });

  it('names the ClusterOperator from the message, never the Deployment the Event is about', async () => {
    // The etcd Events renamed to another operator's ClusterOperator: etcd is no longer dated, and
    // an operator name no Event's message holds (etcd-operator, the Deployment) never is.
    const dir = lgoWith('events.json', (doc) => {
      for (const e of doc.items) {
        if (typeof e.message === 'string' && e.message.startsWith('clusteroperator/etcd '))
          e.message = e.message.replace('clusteroperator/etcd ', 'clusteroperator/dns ');
      }
    });
    const t = await levelTimes(dir);
    expect(t.etcd).toBeUndefined();
    const h = await loadHistory([dir]);
    const update = findUpdates(h).at(-1);
    if (!update) throw new Error('no update');
    expect(new Date(operatorLevelFor(h, 'dns', update)?.at ?? 0).toISOString()).toBe(
      '2021-11-03T02:56:26.000Z',
    );
    expect(operatorLevelFor(h, 'etcd-operator', update)).toBeUndefined();
  });

  it('an operator witnessed by both forms counts once, dated by the earliest report', async () => {
    const dir = lgoWith('events.json', (doc) => {
      const ns = 'openshift-machine-config-operator';
      doc.items.push(libraryGoEvent('machine-config', 'operator', '2021-11-03T03:28:50Z', ns, 'mco'));
      doc.items.push(libraryGoEvent('machine-config', 'operator', '2021-11-03T03:29:05Z', ns, 'mco'));
    });
    expect((await levelTimes(dir))['machine-config']).toBe('2021-11-03T03:28:50.000Z');
    const o = outcome(analyzeHistory(await loadHistory([dir])), RULE);
    expect(o?.coverage).toMatchObject({ checked: 7, total: 29 });
  });

  it('a library-go operator that went Degraded after its report is a violation (it was not checked before)', async () => {
    const degrade = (doc: { items: Record<string, unknown>[] }) => {
      const etcd = doc.items.find((c) => (c.metadata as { name?: string } | undefined)?.name === 'etcd') as {
        status: { conditions: { type: string; status: string; lastTransitionTime: string }[] };
      };
      for (const c of etcd.status.conditions)
        if (c.type === 'Degraded')
          Object.assign(c, { status: 'True', lastTransitionTime: '2021-11-03T03:20:00Z' });
    };
    const r = analyzeHistory(await loadHistory([lgoWith('clusteroperators.json', degrade)]));
    const o = outcome(r, RULE);
    expect(o?.state).toBe('violated');
    const f = o?.findings.find((x) => x.subject?.operator === 'etcd');
    expect(f?.severity).toBe('failure');
    expect(f?.summary).toContain(`etcd reported ${TO} at 02:56:26, then went Degraded=True`);
    expect(f?.evidence[0]?.statement).toBe(`etcd reported operator version ${FROM} -> ${TO}`);
  });
  it("reads them from a must-gather's namespaces/<ns>/core/events.yaml", async () => {
    // The snapshot without the Events, and a must-gather beside it holding etcd's namespace only.
    const dir = mkdtempSync(join(tmpdir(), 'atlevel-lgo-mg-'));
    cpSync(BEFORE, dir, { recursive: true });
    const core = join(dir, 'must-gather/namespaces/openshift-etcd-operator/core');
    mkdirSync(core, { recursive: true });
    writeFileSync(
      join(core, 'events.yaml'),
      `---
apiVersion: v1
items:
- apiVersion: v1
  count: 1
  eventTime: null
  firstTimestamp: "2021-11-03T02:56:26Z"
  involvedObject:
    apiVersion: apps/v1
    kind: Deployment
    name: etcd-operator
    namespace: openshift-etcd-operator
  kind: Event
  lastTimestamp: "2021-11-03T02:56:26Z"
  message: 'clusteroperator/etcd version "operator" changed from "${FROM}" to "${TO}"'
  metadata:
    creationTimestamp: "2021-11-03T02:56:26Z"
    name: etcd-operator.16b4327a8f3c1e20
    namespace: openshift-etcd-operator
  reason: OperatorVersionChanged
  source:
    component: openshift-cluster-etcd-operator-status-controller-statussyncer_etcd
  type: Normal
kind: EventList
metadata:
  resourceVersion: ""
`,
    );
    expect((await levelTimes(dir)).etcd).toBe('2021-11-03T02:56:26.000Z');
    const o = outcome(analyzeHistory(await loadHistory([dir])), RULE);
    expect(o?.coverage).toMatchObject({ checked: 2, total: 29 });
    expect(o?.coverage?.unchecked).not.toContain('etcd');
  });
  it("a run with the monitor's lines keeps the monitor's millisecond: the Event's whole second never wins", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'atlevel-lgo-run-'));
    cpSync(join(projectRoot, 'examples/bug-2019850-fixed'), dir, { recursive: true });
    const file = join(dir, 'artifacts/e2e-aws-upgrade/gather-extra/artifacts/events.json');
    const doc = JSON.parse(readFileSync(file, 'utf8')) as { items: unknown[] };
    // The monitor saw etcd's report at 02:56:26.192; the Event's second starts 192 ms earlier.
    doc.items.push(
      libraryGoEvent('etcd', 'operator', '2021-11-03T02:56:26Z', 'openshift-etcd-operator', 'etcd-operator'),
    );
    writeFileSync(file, JSON.stringify(doc));
    const h = await loadHistory([dir]);
    const update = findUpdates(h).at(-1);
    if (!update) throw new Error('no update');
    const level = operatorLevelFor(h, 'etcd', update);
    expect(level?.source).toBe('build-log');
    expect(new Date(level?.at ?? 0).toISOString()).toBe('2021-11-03T02:56:26.192Z');
    const r = analyzeHistory(h);
    expect(outcome(r, RULE)?.coverage).toBeUndefined();
    expect(r.verdict).toBe('pass');
  });
});
