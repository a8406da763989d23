/** The README of each example folder: what it is, what is quoted from the seed, what is invented. */
import {
  BUILD_ID,
  FROM,
  INTERVALS_FILE,
  JOB,
  MCO_COMMIT,
  NODES,
  POD_FROM,
  POD_TO,
  RENDERED,
  TARGET_IMAGE,
  TO,
} from './facts.js';
import { JOB_URL } from './logs.js';
import { CHANGED_TAGS } from './release.js';
import type { Scenario } from './scenario.js';
import { k8sTime, monitorTime } from './util.js';

const clock = (t: number) => monitorTime(t).slice(7);

const LAYOUT = `\`\`\`
build-log.txt                          ci-operator log with the test container's output: the upgrade
                                       test's log lines and the monitor timeline
artifacts/e2e-aws-upgrade/gather-extra/artifacts/
  clusterversion.json                  oc get clusterversion -o json (a List)
  clusteroperators.json                32 ClusterOperators
  machineconfigpools.json              master, worker
  machineconfigs.json                  10 template MachineConfigs + 4 rendered configs
  nodes.json                           3 masters, 3 workers
  events.json                          core/v1 Events (MCO, MCP, node, CVO, upgrade-test events)
artifacts/e2e-aws-upgrade/openshift-e2e-test/artifacts/junit/
  ${INTERVALS_FILE}   monitor records, origin 4.10 schema
release/
  release-from.json, release-to.json   oc adm release info -o json, for both payloads
\`\`\``;

const TIMING = `Timing choices that follow from the seed: the install runs 02:24:41-02:47:36 (rendered configs
created at 02:30:53 put the install's start a few minutes earlier); the test starts at 02:53:05
(it lasted 43m33s and ended after 03:36:36.324), so the update is requested at 02:53:05.618; the CVO
completes at 03:28:27 (the test polls every 10 s and logged "Completed upgrade" at 03:28:35.858).`;

const INVENTED = `Everything else is invented, chosen to agree with the seed and with the OpenShift behaviour
described in atlevel's docs/domain.md: cluster and node names, uids, resourceVersions, every
other timestamp, the other ClusterOperators and their conditions, the CVO's progress messages, the
node-by-node rollout (maxUnavailable 1; each node takes about 4 minutes: drain, reboot, Ready,
Done), the release payloads apart from the three seed facts (23 representative tags; the ones that
changed are ${CHANGED_TAGS.map((t) => `\`${t}\``).join(', ')}; \`baremetal-runtimecfg\` and the MCO image, which
are also embedded in rendered configs, did not), the MCO commit \`${MCO_COMMIT}\`, and all
MachineConfig content (written for this example after the shape of the MCO's 4.10 templates).

Simplifications to know about:
- Rendered config names are the seed's; their hashes cannot be recomputed from this content (the
  MCO hashes the full real spec with a salt).
- The pull secret in \`/var/lib/kubelet/config.json\` is \`{"auths":{}}\`; certificates and the ssh key
  are placeholders of the right shape.
- \`events.json\` holds the events that matter for the update (about 120), not every event the API
  server kept; nodes carry no \`status.images\`.
- origin's 4.10 writer of \`e2e-intervals_*.json\` dropped instants (from == to); this file keeps
  them, so it carries the same records as the build log's timeline (at second precision).
- The build log is condensed: a few ci-operator steps, then the test container's output inline (as
  ci-operator prints it for a failed step), with only the upgrade test and its monitor timeline.`;

function seedFacts(): string {
  return `Quoted from the seed (exact):
- job \`${JOB}\`, build \`${BUILD_ID}\` (${JOB_URL});
- update from \`${FROM}\` to \`${TO}\`, target image \`${TARGET_IMAGE}\`;
- the six \`clusteroperator/machine-config\` monitor lines (03:23:03.719 Progressing=True, the
  \`- 6s\` interval, 03:23:09.856 versions, 03:23:10.428 Progressing=False, 03:23:16.899
  Upgradeable=False PoolUpdating, 03:36:29.855 Upgradeable=True);
- the upgrade test's lines at 03:28:35.858 (Completed upgrade), 03:28:35.931 (Waiting on pools),
  03:28:36.063 (master still reporting + invariant violation), 03:28:36.128 (worker still
  reporting) and 03:36:36.324 (All pools completed upgrade), and the test's 43m33s;
- the rendered configs and creation times: \`${RENDERED.masterOld}\` and \`${RENDERED.workerOld}\`
  at 2021-11-03T02:30:53Z, \`${RENDERED.masterNew}\` and \`${RENDERED.workerNew}\` at 2021-11-03T03:23:11Z;
- kubelet.service of the rendered masters: 42 lines, differing only at line 34,
  \`--pod-infra-container-image=\` \`${POD_FROM.split('@')[1]}\` → \`${POD_TO.split('@')[1]}\`;
- \`pod\` is ef66… in the from release and 0ada… in the to release; \`machine-config-operator\` and
  \`machine-os-content\` are identical in both.`;
}

export function readme(s: Scenario): string {
  const masters = NODES.filter((n) => n.role === 'master').map((n) => n.name);
  const master = s.pools.find((p) => p.name === 'master');
  const worker = s.pools.find((p) => p.name === 'worker');
  if (!master || !worker) throw new Error('pools missing');
  if (s.variant === 'bug') {
    return `# bug-2019850: a reconstruction of the CI run behind Bugzilla 2019850

This folder is **not** the original CI artifacts. It is a reconstruction, generated by
\`scripts/make-examples.ts\` from the public bug report
(https://bugzilla.redhat.com/show_bug.cgi?id=2019850, closed as a duplicate of 1999556), laid out the way CI lays
out the artifacts of \`${JOB}\`.

Try it: \`atlevel analyze examples/bug-2019850\`. The clean counterpart, the same update under the
fixed machine-config operator, is \`examples/bug-2019850-fixed\`.

## What happened

The two nightlies had the same machine-config operator and the same machine-os-content, but a new
\`pod\` (pause) image. The new MCO started syncing at 03:23:03.719 and, finding the master pool
Updated on a rendered config that passed every check it had, reported \`operator ${TO}\` at
03:23:09.856. The CVO took that as "machine-config is at level" and completed the update at
${clock(s.cv.completedAt)} (history entry Completed ${k8sTime(s.cv.completedAt)}). But the render
controller, which waits 5 s before rendering, created \`${RENDERED.masterNew}\` and
\`${RENDERED.workerNew}\` at 03:23:11 with the new pause image in kubelet.service and CRI-O's
\`00-default\`, so the master pool went Updating and rebooted its masters one at a time
(${masters.join(', ')}) until ${clock(master.updatedAt)}. The upgrade test saw
the master pool Updating after the CVO had reported the new version and failed with
\`the "master" pool should be updated before the CVO reports available at the new version\`.

## Layout

${LAYOUT}

## What is from the seed and what is invented

${seedFacts()}

${INVENTED}

${TIMING}

Regenerate with \`npx tsx scripts/make-examples.ts\` (the output is byte-identical on every run).
`;
  }
  return `# bug-2019850-fixed: the same update with the fixed machine-config operator

The clean counterpart of \`examples/bug-2019850\`: the same cluster, the same two nightlies
(\`${FROM}\` → \`${TO}\`), the same rendered configs and the same master rollout, but with the
machine-config operator behaving as it does after MCO PR #2918 (Bug 1999556). Generated by
\`scripts/make-examples.ts\`; like the bug example, it is a reconstruction, not real CI output.

Try it: \`atlevel analyze examples/bug-2019850-fixed\`. Every rule it can check holds; the verdict is
inconclusive (exit 4) because the example carries no workload data (Deployments, DaemonSets, pods,
ReplicaSets), so \`operator-level-before-operands\` is not checked, and the report names the missing files.

## What differs from bug-2019850

- Every rendered config carries \`machineconfiguration.openshift.io/release-image-version\`:
  \`${FROM}\` on the two old ones, \`${TO}\` on the two new ones; the \`RenderedConfigGenerated\`
  events say \`successfully generated (release version: …, controller version: …)\`.
- The operator refuses to report level while the master pool's current rendered config carries the
  old release version. It stays Progressing=True from 03:23:03.719 until ${clock(s.operators.find((o) => o.name === 'machine-config')?.changes.find((c) => c.type === 'Progressing' && c.status === 'False')?.at ?? 0)}; its
  RequiredPools wait times out once after 10 minutes, so it is Degraded (RequiredPoolsFailed,
  "release image version mismatch for master …") for a few minutes while the last master reboots.
- The master pool is Updated at ${clock(master.updatedAt)}; the operator reports
  \`versions: operator ${FROM} -> ${TO}\` at ${clock(s.mco.levelAt)}, after that.
- The CVO completes at ${clock(s.cv.completedAt)}; the test logs \`Completed upgrade\` after the master
  pool is Updated, so the invariant holds. The third worker's drain waited on a
  PodDisruptionBudget for a few minutes, so the worker pool is still rolling at that moment
  (Updated at ${clock(worker.updatedAt)}): the test polls it as still updating, which the invariant allows.
- The test passes; the build log and events show no invariant violation.

## Layout

${LAYOUT}

## What is from the seed and what is invented

The job, versions, images, rendered config names and times, kubelet.service and release facts are
the seed's, as in \`examples/bug-2019850\`. The machine-config operator's behaviour and every time
after 03:23:03.719 that depends on it are derived from the fix (docs/domain.md 1.2, 1.4, 1.5), not
observed. ${INVENTED}

Regenerate with \`npx tsx scripts/make-examples.ts\` (the output is byte-identical on every run).
`;
}
