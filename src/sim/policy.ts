/**
 * The machine-config operator's validity check for a required pool before it reports its new
 * version (`isMachineConfigPoolConfigurationValid`, docs/domain.md 1.2), as three policies:
 * - `naive`: no check of the rendered config at all; the pool's Updated condition decides (the
 *   guard as it was before 2019, MCO PR #265).
 * - `pre-fix-2021`: controller-version hash of the rendered config and its sources, and osImageURL
 *   (as in November 2021, after MCO PR #2585).
 * - `fixed`: also the `release-image-version` annotation the render controller stamps (MCO PR #2918).
 *
 * The same policies decide when an operator with an operand (a DaemonSet or Deployment it rolls out,
 * operands.ts) reports its new version, the contract of the CVO's https://github.com/openshift/cluster-version-operator/blob/master/docs/dev/clusteroperator.md
 * ("Available" means the operand is functional at the reported level):
 * - `naive`: as soon as it applied the operand's manifests (the operand may still be rolling out);
 * - `pre-fix-2021` and `fixed`: once the operand rolled out (every replica updated and available).
 *   `pre-fix-2021` names the MCO's check of 2021; the operand operators behave as under `fixed`.
 */
import { MCO } from '../model/index.js';
import type { MachineConfigObj, PoolObj } from './objects.js';
import { poolSummary } from './pool-status.js';

export const POLICY_NAMES = ['naive', 'pre-fix-2021', 'fixed'] as const;
export type PolicyName = (typeof POLICY_NAMES)[number];

interface ValidityInput {
  readonly pool: PoolObj;
  /** The operator's `version.Hash`: its MCO commit. */
  readonly controllerVersion: string;
  /** The operator's `operator` version: the OCP release it belongs to. */
  readonly releaseVersion: string;
  /** From the `machine-config-osimageurl` configmap, as the operator last saw it. */
  readonly osImageURL: string;
  readonly getMachineConfig: (name: string) => MachineConfigObj | undefined;
}

export interface Policy {
  readonly name: PolicyName;
  readonly summary: string;
  /** Whether this MCO build stamps `release-image-version` on the ControllerConfig and rendered configs. */
  readonly stampsReleaseVersion: boolean;
  /**
   * When an operator with an operand (operands.ts) reports level: once its operand manifests are
   * applied (`naive`), or once the operand rolled out, every replica updated and available.
   */
  readonly operandLevel: 'manifests-applied' | 'rolled-out';
  /** The error the operator would report, or undefined when the pool's configuration is valid. */
  validate(input: ValidityInput): string | undefined;
}

function structural(input: ValidityInput): string | undefined {
  const pool = input.pool;
  const name = pool.meta.name;
  if (pool.spec.name === '') return `configuration spec for pool ${name} is empty: ${poolSummary(pool)}`;
  if (pool.status.configuration.name === '')
    return `configuration status for pool ${name} is empty: ${poolSummary(pool)}`;
  if (pool.status.configuration.source.length === 0) {
    return `list of MachineConfigs that were used to generate configuration for pool ${name} is empty: ${poolSummary(pool)}`;
  }
  return undefined;
}

function controllerVersionAndOs(input: ValidityInput): string | undefined {
  const pool = input.pool;
  const renderedName = pool.status.configuration.name;
  const want = input.controllerVersion;
  for (const mcName of [renderedName, ...pool.status.configuration.source]) {
    const mc = input.getMachineConfig(mcName);
    if (!mc) return `machineconfig ${mcName} not found: ${poolSummary(pool)}`;
    const has = mc.meta.annotations[MCO.generatedByControllerVersion];
    if (has === undefined) {
      if (mcName === renderedName)
        return `${mcName} must be created by controller version ${want}: ${poolSummary(pool)}`;
      continue;
    }
    if (has !== want)
      return `controller version mismatch for ${mcName} expected ${want} has ${has}: ${poolSummary(pool)}`;
  }
  const rendered = input.getMachineConfig(renderedName) as MachineConfigObj;
  if (rendered.spec.osImageURL !== input.osImageURL) {
    return `osImageURL mismatch for ${pool.meta.name} in ${renderedName} expected: ${input.osImageURL} got: ${rendered.spec.osImageURL}`;
  }
  return undefined;
}

function releaseVersion(input: ValidityInput): string | undefined {
  const pool = input.pool;
  const renderedName = pool.status.configuration.name;
  const rendered = input.getMachineConfig(renderedName) as MachineConfigObj;
  const has = rendered.meta.annotations[MCO.releaseImageVersion];
  if (has === undefined) {
    return `Unable to access annotation ${MCO.releaseImageVersion} for ${renderedName} expected: ${input.releaseVersion}`;
  }
  if (has !== input.releaseVersion) {
    return `release image version mismatch for ${pool.meta.name} in ${renderedName} expected: ${input.releaseVersion} got: ${has}`;
  }
  return undefined;
}

export const POLICIES: Readonly<Record<PolicyName, Policy>> = {
  naive: {
    name: 'naive',
    summary: 'required pool Updated=True is enough; the rendered config is not examined',
    stampsReleaseVersion: false,
    operandLevel: 'manifests-applied',
    validate: () => undefined,
  },
  'pre-fix-2021': {
    name: 'pre-fix-2021',
    summary:
      "rendered config made by the operator's controller version and carrying the payload's osImageURL",
    stampsReleaseVersion: false,
    operandLevel: 'rolled-out',
    validate: (input) => structural(input) ?? controllerVersionAndOs(input),
  },
  fixed: {
    name: 'fixed',
    summary:
      'as pre-fix-2021, and the rendered config is stamped with the release-image-version of the new release',
    stampsReleaseVersion: true,
    operandLevel: 'rolled-out',
    validate: (input) => structural(input) ?? controllerVersionAndOs(input) ?? releaseVersion(input),
  },
};

export function isPolicyName(value: string): value is PolicyName {
  return (POLICY_NAMES as readonly string[]).includes(value);
}
