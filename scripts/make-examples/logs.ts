/**
 * The text artifacts: the job's build-log.txt (ci-operator lines, the test container's output with
 * the upgrade test's log and the monitor timeline) and origin's 4.10-era intervals JSON.
 */

import {
  monitorLine,
  sortedRecords,
  testLogLine,
  intervalsJson as writeIntervals,
} from '../../src/artifacts/index.js';
import {
  BUILD_ID,
  CI_NAMESPACE,
  FROM,
  JOB,
  MASTER_INVARIANT,
  MONITOR_START,
  REGION,
  TARGET_IMAGE,
  TEST_DURATION,
  TEST_NAME,
  TEST_STARTED,
  TO,
} from './facts.js';
import type { Scenario } from './types.js';
import { at, k8sTime, klogTime, MINUTE, rng, SECOND, testLogTime } from './util.js';

const ci = (t: number, text: string, level = 'INFO') => `${level}[${k8sTime(t)}] ${text}`;

function duration(ms: number): string {
  const s = Math.floor(ms / SECOND);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return `${h > 0 ? `${h}h` : ''}${h > 0 || m > 0 ? `${m}m` : ''}${s % 60}s`;
}

function testOutput(s: Scenario): string[] {
  const log = testLogLine;
  const out: string[] = [
    '[BeforeEach] [Top Level]',
    '  github.com/openshift/origin/test/extended/util/framework.go:1489',
    '[BeforeEach] [sig-arch][Feature:ClusterUpgrade]',
    '  github.com/openshift/origin/test/extended/util/client.go:142',
    'STEP: Creating a kubernetes client',
    '[It] Cluster should remain functional during upgrade [Disruptive] [Serial]',
    '  github.com/openshift/origin/test/e2e/upgrade/upgrade.go:154',
  ];
  for (const line of s.testLog) out.push(log(line.at, line.text));
  out.push(
    '[AfterEach] [sig-arch][Feature:ClusterUpgrade]',
    '  github.com/openshift/origin/test/extended/util/client.go:143',
  );
  if (!s.testPassed) {
    out.push(
      `fail [github.com/openshift/origin/test/e2e/upgrade/upgrade.go:160]: during upgrade to ${TARGET_IMAGE}`,
      'Unexpected error:',
      '    <*errors.errorString | 0xc0027f5d80>: {',
      `        s: ${JSON.stringify(MASTER_INVARIANT)},`,
      '    }',
      `    ${MASTER_INVARIANT}`,
      'occurred',
    );
  }
  return out;
}

export function buildLog(s: Scenario): string {
  const r = rng(`build-log:${s.variant}`);
  const start = at('02:09:52');
  const testStep = at('02:48:40');
  const stepEnd = s.testEnd + 33 * SECOND;
  const gatherEnd = s.gatherAt + 2 * MINUTE + 6 * SECOND;
  const mustGatherEnd = gatherEnd + 4 * MINUTE + 12 * SECOND;
  const deprovisionEnd = mustGatherEnd + 7 * MINUTE + 28 * SECOND;
  const lines: string[] = [
    ci(start, 'ci-operator version v20211102-8f3c1a7d2'),
    ci(
      start,
      'Loading configuration from https://config.ci.openshift.org for openshift/release@master [nightly-4.10]',
    ),
    ci(start + SECOND, 'Resolved source https://github.com/openshift/release to master@0d9e4b7c'),
    ci(
      start + SECOND,
      `Using explicitly provided pull-spec for release initial (registry.ci.openshift.org/ocp/release:${FROM})`,
    ),
    ci(
      start + SECOND,
      `Using explicitly provided pull-spec for release latest (registry.ci.openshift.org/ocp/release:${TO})`,
    ),
    ci(
      start + 2 * SECOND,
      `Using namespace https://console.build01.ci.openshift.org/k8s/cluster/projects/${CI_NAMESPACE}`,
    ),
    ci(
      start + 2 * SECOND,
      'Running [release-inputs], [release:initial], [release:latest], [images], e2e-aws-upgrade',
    ),
    ci(start + 3 * SECOND, 'Importing release image initial.'),
    ci(start + 3 * SECOND, 'Importing release image latest.'),
    ci(
      at('02:11:02'),
      `Imported release ${FROM} created at 2021-11-02 19:17:41 +0000 UTC with 131 images to tag release:initial`,
    ),
    ci(
      at('02:11:09'),
      `Imported release ${TO} created at 2021-11-03 02:05:49 +0000 UTC with 131 images to tag release:latest`,
    ),
    ci(at('02:11:09'), 'Acquiring leases for test e2e-aws-upgrade'),
    ci(at('02:11:10'), `Acquired 1 lease(s) for aws-quota-slice: [${REGION}--aws-quota-slice-12]`),
    ci(at('02:11:10'), 'Running multi-stage test e2e-aws-upgrade'),
  ];
  let t = at('02:11:10');
  for (const step of ['ipi-conf', 'ipi-conf-aws', 'ipi-install-monitoringpvc', 'ipi-install-rbac']) {
    lines.push(ci(t, `Running step e2e-aws-upgrade-${step}.`));
    t += 10 * SECOND;
    lines.push(ci(t, `Step e2e-aws-upgrade-${step} succeeded after 10s.`));
  }
  lines.push(ci(t, 'Running step e2e-aws-upgrade-ipi-install-install.'));
  lines.push(
    ci(testStep, `Step e2e-aws-upgrade-ipi-install-install succeeded after ${duration(testStep - t)}.`),
  );
  lines.push(ci(testStep, 'Running step e2e-aws-upgrade-openshift-e2e-test.'));
  lines.push(ci(stepEnd, 'Logs for container test in pod e2e-aws-upgrade-openshift-e2e-test:'));

  // The test container's output, as openshift-tests prints it.
  const provider = `{"type":"aws","region":"${REGION}","zone":"${REGION}a","multizone":true,"multimaster":true}`;
  lines.push(
    `+ openshift-tests run-upgrade all --to-image ${TARGET_IMAGE} --options '' --provider '${provider}' -o /logs/artifacts/e2e.log --junit-dir /logs/artifacts/junit`,
    `${klogTime(MONITOR_START - 410, r.int(0, 999))}     118 test_context.go:457] Tolerating taints "node-role.kubernetes.io/master" when considering if nodes are ready`,
    `${testLogTime(MONITOR_START - 395)}: INFO: Fetching cloud provider for "aws"`,
    `${klogTime(MONITOR_START - 393, r.int(0, 999))}     118 aws.go:37] Got AWS session region "${REGION}"`,
    `${klogTime(MONITOR_START, r.int(0, 999))}     118 monitor.go:84] Starting the monitor`,
    `started: (0/1/1) "${TEST_NAME}"`,
    '',
    ...testOutput(s),
    '',
    s.testPassed
      ? `passed: (${duration(s.testEnd - TEST_STARTED)}) ${k8sTime(s.testEnd).slice(0, 19)} "${TEST_NAME}"`
      : `failed: (${TEST_DURATION}) ${k8sTime(s.testEnd).slice(0, 19)} "${TEST_NAME}"`,
    '',
    'Timeline:',
    '',
    ...sortedRecords(s.monitor).map(monitorLine),
    '',
  );
  const suite = duration(s.testEnd + 24 * SECOND - MONITOR_START);
  if (s.testPassed) {
    lines.push(
      `Writing JUnit report to /logs/artifacts/junit/junit_e2e_${junitStamp(s.testEnd)}.xml`,
      '',
      `1 pass, 0 skip (${suite})`,
    );
  } else {
    lines.push(
      'Failing tests:',
      '',
      TEST_NAME,
      '',
      `Writing JUnit report to /logs/artifacts/junit/junit_e2e_${junitStamp(s.testEnd)}.xml`,
      '',
      `error: 1 fail, 0 pass, 0 skip (${suite})`,
    );
  }
  lines.push(
    ci(
      stepEnd,
      `Step e2e-aws-upgrade-openshift-e2e-test ${s.testPassed ? 'succeeded' : 'failed'} after ${duration(stepEnd - testStep)}.`,
    ),
    ci(stepEnd, 'Running step e2e-aws-upgrade-gather-extra.'),
    ci(gatherEnd, `Step e2e-aws-upgrade-gather-extra succeeded after ${duration(gatherEnd - stepEnd)}.`),
    ci(gatherEnd, 'Running step e2e-aws-upgrade-gather-must-gather.'),
    ci(
      mustGatherEnd,
      `Step e2e-aws-upgrade-gather-must-gather succeeded after ${duration(mustGatherEnd - gatherEnd)}.`,
    ),
    ci(mustGatherEnd, 'Running step e2e-aws-upgrade-ipi-deprovision-deprovision.'),
    ci(
      deprovisionEnd,
      `Step e2e-aws-upgrade-ipi-deprovision-deprovision succeeded after ${duration(deprovisionEnd - mustGatherEnd)}.`,
    ),
    ci(deprovisionEnd, 'Releasing leases for test e2e-aws-upgrade'),
    ci(deprovisionEnd + SECOND, `Ran for ${duration(deprovisionEnd + SECOND - start)}`),
  );
  if (s.testPassed) {
    lines.push(ci(deprovisionEnd + SECOND, "Reporting job state 'succeeded'"));
  } else {
    lines.push(
      ci(deprovisionEnd + SECOND, 'Some steps failed:', 'ERRO'),
      ci(
        deprovisionEnd + SECOND,
        `  * could not run steps: step e2e-aws-upgrade failed: "e2e-aws-upgrade" test steps failed: "e2e-aws-upgrade" pod "e2e-aws-upgrade-openshift-e2e-test" failed: the pod ${CI_NAMESPACE}/e2e-aws-upgrade-openshift-e2e-test failed after ${duration(stepEnd - testStep)} (failed containers: test): ContainerFailed one or more containers exited`,
        'ERRO',
      ),
      ci(
        deprovisionEnd + SECOND,
        "Reporting job state 'failed' with reason 'executing_graph:step_failed:utilizing_lease:executing_test:executing_multi_stage_test'",
      ),
    );
  }
  return `${lines.join('\n')}\n`;
}

function junitStamp(t: number): string {
  return k8sTime(t + 24 * SECOND)
    .slice(0, 19)
    .replace(/[-:]/g, '')
    .replace('T', '-');
}

/** origin's 4.10 serialisation of the scenario's monitor records. */
export function intervalsJson(s: Scenario): string {
  return writeIntervals(s.monitor);
}

/** Where the seed's job lives, for the README. */
export const JOB_URL = `https://prow.ci.openshift.org/view/gs/origin-ci-test/logs/${JOB}/${BUILD_ID}`;
