/**
 * Messages as the object had them (issue 37): origin's current monitor writes a ClusterVersion
 * condition change as an interval whose humanMessage is `changed to Progressing=True: <reason>:
 * <message>` (openshift/origin monitorapi GetOperatorConditionHumanMessage), with the condition,
 * status and reason as annotations. An object rebuilt from such intervals shows the condition's own
 * message: serve serves it, watch prints `changed Progressing to True: …` once, and the timeline's
 * intervals hold no monitor decoration.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadHistoryParts } from '../../src/sources/index.js';
import { buildHistory } from '../../src/timeline/index.js';
import { getJson, type Json } from '../serve/helpers.js';
import { serve, startReplayWhenWatched, startWatch } from './helpers.js';

const T = (clock: string) => Date.parse(`2021-11-03T${clock}Z`);
const TARGET = '4.10.0-0.nightly-2021-11-03-020416';
const WORKING =
  'Working towards registry.build01.ci.openshift.org/ci-op-wi0wdxci/release@sha256:51f2f24726c8153cae4bf9978a5d04088e88479ab4f5618c1111e0e69176ad2f: downloading update';
const DONE = `Cluster version is ${TARGET}`;

const tmp = mkdtempSync(join(tmpdir(), 'atlevel-condition-messages-'));
const run = join(tmp, 'run');

/** One structured interval of a ClusterVersion condition, as origin's watcher writes it. */
function cvCondition(at: string, type: string, status: string, reason: string, message: string, to = at) {
  const said = reason && message ? `: ${reason}: ${message}` : message ? `: ${message}` : '';
  return {
    level: 'Warning',
    display: false,
    source: 'ClusterOperatorMonitor',
    locator: { type: 'ClusterVersion', keys: { clusterversion: 'version' } },
    message: {
      reason: '',
      cause: '',
      humanMessage: `changed to ${type}=${status}${said}`,
      annotations: { condition: type, reason, status },
    },
    from: at,
    to,
  };
}

beforeAll(() => {
  // bug-2019850 with its ClusterVersion condition changes moved from the 4.10 build log and string
  // intervals to an interval file in origin's current structured form.
  // The reconstruction's timeline (test/fixtures/reconstruction/README.md): the moments below are its.
  cpSync('test/fixtures/reconstruction/bug-2019850', run, { recursive: true });
  const log = join(run, 'build-log.txt');
  writeFileSync(
    log,
    readFileSync(log, 'utf8')
      .split('\n')
      .filter((l) => !/ clusterversion\/version changed /.test(l))
      .join('\n'),
  );
  const junit = join(run, 'artifacts/e2e-aws-upgrade/openshift-e2e-test/artifacts/junit');
  const file = readdirSync(junit).find((n) => n.startsWith('e2e-intervals')) ?? '';
  const doc = JSON.parse(readFileSync(join(junit, file), 'utf8')) as { items: { message: unknown }[] };
  doc.items = doc.items.filter((i) => !/^changed \w+ to /.test(String(i.message)));
  writeFileSync(join(junit, file), JSON.stringify(doc, null, 4));
  writeFileSync(
    join(junit, 'e2e-events_20211103-025021.json'),
    JSON.stringify(
      {
        items: [
          cvCondition('2021-11-03T02:53:05Z', 'Progressing', 'True', '', WORKING),
          // origin's derived interval carries the change's humanMessage over the bad period.
          {
            ...cvCondition(
              '2021-11-03T02:53:05Z',
              'Progressing',
              'True',
              '',
              WORKING,
              '2021-11-03T03:28:27Z',
            ),
            source: 'OperatorState',
            display: true,
          },
          cvCondition('2021-11-03T03:28:27Z', 'Progressing', 'False', 'Completed', DONE),
        ],
      },
      null,
      4,
    ),
  );
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function progressing(cv: Json): Json {
  return (cv.status.conditions as Json[]).find((c) => c.type === 'Progressing');
}

describe("a condition's own message, from origin's structured intervals", () => {
  it('the timeline holds the message, the annotations the condition, status and reason', async () => {
    const history = buildHistory(await loadHistoryParts([run], { now: Date.now() }));
    const cv = history.intervals.filter(
      (i) => i.locator.type === 'ClusterVersion' && i.message.annotations.condition === 'Progressing',
    );
    const monitored = cv.filter((i) => i.source !== 'gather-extra' && !i.source.startsWith('derived:'));
    expect(monitored.map((i) => i.message.humanMessage)).toEqual([WORKING, WORKING, DONE]);
    expect(monitored.at(-1)?.message.annotations).toMatchObject({ status: 'False', reason: 'Completed' });
    // Nor does any other interval of the ClusterVersion's conditions (the snapshot's included).
    expect(cv.filter((i) => i.message.humanMessage.includes('changed'))).toEqual([]);
  });

  it('serve serves the message as the object had it, at the change and after it', async () => {
    const atChange = await serve([run], { at: T('03:28:27') });
    const later = await serve([run], { at: T('03:00:00') });
    try {
      const done = await getJson(`${atChange.url}/apis/config.openshift.io/v1/clusterversions/version`);
      expect(progressing(done.body)).toMatchObject({ status: 'False', reason: 'Completed', message: DONE });
      const working = await getJson(`${later.url}/apis/config.openshift.io/v1/clusterversions/version`);
      expect(progressing(working.body).status).toBe('True');
      expect(progressing(working.body).message).toBe(
        `as last recorded, at 2021-11-03T02:53:05Z (it may have changed since): ${WORKING}`,
      );
    } finally {
      await atChange.close();
      await later.close();
    }
  });

  it('watch of a replay prints the change once: no line repeats its decoration', async () => {
    const server = await serve([run], {
      replay: true,
      holdReplay: true,
      speed: 400,
      range: { from: T('03:27:00') },
    });
    try {
      const w = await startWatch(server.url);
      await startReplayWhenWatched(server, 8);
      await w.done;
      const lines = w.outputs.flatMap((o) =>
        o.type === 'transition' && o.record.locator === 'clusterversion/version' ? [o.record.message] : [],
      );
      expect(lines).toContain(`changed Progressing to False: Completed: ${DONE}`);
      for (const line of lines) expect(line.match(/changed/g)?.length ?? 0).toBeLessThanOrEqual(1);
    } finally {
      await server.close();
    }
  });
});
