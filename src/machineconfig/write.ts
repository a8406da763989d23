/**
 * Writing Ignition 3.2 as the MCO's templates produce it (docs/domain.md 3.4): inline file contents as
 * `data:,` URLs with percent-escaping, mode, overwrite; units with contents, enablement, mask and
 * drop-ins; the core user's SSH keys. The simulator and the example generator both write configs
 * with it, so what they write is what src/machineconfig reads.
 */

interface IgnitionDraftFile {
  readonly path: string;
  readonly mode: number;
  readonly contents: string;
}

interface IgnitionDraftUnit {
  readonly name: string;
  readonly contents?: string | undefined;
  readonly enabled?: boolean | undefined;
  readonly mask?: boolean | undefined;
  readonly dropins?: readonly { readonly name: string; readonly contents: string }[] | undefined;
}

export interface IgnitionDraft {
  readonly files: readonly IgnitionDraftFile[];
  readonly units: readonly IgnitionDraftUnit[];
  readonly sshKeys?: readonly string[] | undefined;
}

/** `data:,` + percent-encoding of the text (RFC 2397), as FCCT writes template files. */
export function textDataUrl(text: string): string {
  return `data:,${encodeURIComponent(text)}`;
}

/** The Ignition object as it sits in a MachineConfig's `spec.config`; empty sections are left out. */
export function ignitionJson(draft: IgnitionDraft): Record<string, unknown> {
  const out: Record<string, unknown> = { ignition: { version: '3.2.0' } };
  if (draft.sshKeys && draft.sshKeys.length > 0) {
    out.passwd = { users: [{ name: 'core', sshAuthorizedKeys: [...draft.sshKeys] }] };
  }
  if (draft.files.length > 0) {
    out.storage = {
      files: draft.files.map((f) => ({
        contents: { source: textDataUrl(f.contents) },
        mode: f.mode,
        overwrite: true,
        path: f.path,
      })),
    };
  }
  if (draft.units.length > 0) {
    out.systemd = {
      units: draft.units.map((u) => ({
        ...(u.contents !== undefined ? { contents: u.contents } : {}),
        ...(u.dropins && u.dropins.length > 0
          ? { dropins: u.dropins.map((d) => ({ contents: d.contents, name: d.name })) }
          : {}),
        ...(u.enabled !== undefined ? { enabled: u.enabled } : {}),
        ...(u.mask !== undefined ? { mask: u.mask } : {}),
        name: u.name,
      })),
    };
  }
  return out;
}
