/**
 * Ignition 3.2 as MachineConfigs carry it: inline file contents as RFC 2397 `data:,` URLs with
 * percent-escaping (domain.md 3.4), units with contents, the core user's SSH keys.
 */
import type { IgnConfig, MachineConfigSpec } from './objects.js';

/** `data:,` + percent-encoding that leaves RFC 2396 unreserved characters alone. */
export function dataUrl(text: string): string {
  return `data:,${encodeURIComponent(text)}`;
}

export interface IgnitionJson {
  ignition: { version: string };
  passwd?: { users: { name: string; sshAuthorizedKeys: string[] }[] };
  storage?: { files: { contents: { source: string }; mode: number; overwrite: boolean; path: string }[] };
  systemd?: {
    units: {
      contents?: string;
      enabled?: boolean;
      name: string;
      dropins?: { contents: string; name: string }[];
    }[];
  };
}

export function ignitionJson(config: IgnConfig): IgnitionJson {
  const out: IgnitionJson = { ignition: { version: '3.2.0' } };
  if (config.sshKeys.length > 0)
    out.passwd = { users: [{ name: 'core', sshAuthorizedKeys: [...config.sshKeys] }] };
  if (config.files.length > 0) {
    out.storage = {
      files: config.files.map((f) => ({
        contents: { source: dataUrl(f.contents) },
        mode: f.mode,
        overwrite: true,
        path: f.path,
      })),
    };
  }
  if (config.units.length > 0) {
    out.systemd = {
      units: config.units.map((u) => ({
        ...(u.contents !== undefined ? { contents: u.contents } : {}),
        ...(u.dropins.length > 0
          ? { dropins: u.dropins.map((d) => ({ contents: d.contents, name: d.name })) }
          : {}),
        ...(u.enabled !== undefined ? { enabled: u.enabled } : {}),
        name: u.name,
      })),
    };
  }
  return out;
}

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
