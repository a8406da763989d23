/**
 * A simulated MachineConfig spec in its JSON shape; the Ignition inside is written by
 * src/machineconfig/write.ts, the writer the example generator uses too.
 */
import { ignitionJson } from '../machineconfig/index.js';
import type { MachineConfigSpec } from './objects.js';

/** A MachineConfig spec in its Kubernetes JSON shape (keys sorted as the API server returns them). */
export function specJson(spec: MachineConfigSpec): Record<string, unknown> {
  return {
    config: ignitionJson(spec.config),
    extensions: spec.extensions.length > 0 ? [...spec.extensions] : null,
    fips: spec.fips,
    kernelArguments: spec.kernelArguments.length > 0 ? [...spec.kernelArguments] : null,
    kernelType: spec.kernelType,
    osImageURL: spec.osImageURL,
  };
}
