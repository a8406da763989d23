/**
 * The files of one example folder, path → content, rendered from its scenario. The formats (Lists,
 * monitor and test lines, interval JSON, release info) come from the one CI layout writer,
 * src/artifacts/ci-layout.ts; this generator holds the scenario's facts.
 */
import { ciPaths, GATHER_FILES } from '../../src/artifacts/index.js';
import { INTERVALS_FILE, TEST_DURATION, TEST_STARTED } from './facts.js';
import { buildLog, intervalsJson } from './logs.js';
import {
  clusterOperatorsJson,
  clusterVersionJson,
  eventsJson,
  machineConfigPoolsJson,
  machineConfigsJson,
  nodesJson,
} from './objects.js';
import { readme } from './readme.js';
import { releaseInfoJson } from './release.js';
import { buildScenario, type Scenario, type Variant } from './scenario.js';

export const FOLDERS: Readonly<Record<Variant, string>> = { bug: 'bug-2019850', fixed: 'bug-2019850-fixed' };
const PATHS = ciPaths('e2e-aws-upgrade');
export const GATHER_DIR = PATHS.gather;
export const JUNIT_DIR = PATHS.junit;
const MAX_EXAMPLE_BYTES = 1_500_000;

/** Facts the scenario must reproduce; a failure here means the timeline drifted from the seed. */
function check(s: Scenario, out: Record<string, string>): void {
  if (s.variant === 'bug') {
    const ms = s.testEnd - TEST_STARTED;
    const shown = `${Math.floor(ms / 60_000)}m${Math.floor((ms % 60_000) / 1000)}s`;
    if (shown !== TEST_DURATION) throw new Error(`test duration ${shown}, the seed says ${TEST_DURATION}`);
  }
  const total = Object.values(out).reduce((n, text) => n + Buffer.byteLength(text), 0);
  if (total > MAX_EXAMPLE_BYTES)
    throw new Error(`${FOLDERS[s.variant]} is ${total} bytes, over ${MAX_EXAMPLE_BYTES}`);
}

export function exampleFiles(variant: Variant): Record<string, string> {
  const s = buildScenario(variant);
  const out: Record<string, string> = {
    'README.md': readme(s),
    'build-log.txt': buildLog(s),
    [`${GATHER_DIR}/${GATHER_FILES.ClusterVersion}`]: clusterVersionJson(s),
    [`${GATHER_DIR}/${GATHER_FILES.ClusterOperator}`]: clusterOperatorsJson(s),
    [`${GATHER_DIR}/${GATHER_FILES.MachineConfigPool}`]: machineConfigPoolsJson(s),
    [`${GATHER_DIR}/${GATHER_FILES.MachineConfig}`]: machineConfigsJson(s),
    [`${GATHER_DIR}/${GATHER_FILES.Node}`]: nodesJson(s),
    [`${GATHER_DIR}/${GATHER_FILES.Event}`]: eventsJson(s),
    [`${JUNIT_DIR}/${INTERVALS_FILE}`]: intervalsJson(s),
    'release/release-from.json': releaseInfoJson('from'),
    'release/release-to.json': releaseInfoJson('to'),
  };
  check(s, out);
  return out;
}
