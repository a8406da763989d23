/**
 * MachineConfig files for `atlevel diff A.yaml B.yaml`: a MachineConfig, a List of them (`oc get mc
 * -o yaml`, gather-extra's machineconfigs.json), or several YAML documents. Whole sources
 * (must-gathers, folders, tarballs) go through the layouts instead.
 */

import type { Observed } from '../../model/index.js';
import { InputError, KINDS, type MachineConfig, printable } from '../../model/index.js';
import { type InputFileOptions, readInputDocuments, statInput } from './input-file.js';

function validate(raw: unknown, file: string, path: string): Observed<MachineConfig> {
  const parsed = KINDS.MachineConfig.schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const at = issue?.path.length ? `.${issue.path.join('.')}` : '';
    throw new InputError(file, `${path}: invalid MachineConfig${at}: ${issue?.message ?? 'invalid'}`);
  }
  return { object: parsed.data, ref: path === '' ? { file } : { file, path } };
}

/** Every MachineConfig in the file, with where it sits; throws InputError when there is none. */
export async function loadMachineConfigFile(
  file: string,
  opts: InputFileOptions = {},
): Promise<Observed<MachineConfig>[]> {
  const display = opts.display ?? file;
  if ((await statInput(file, display)).isDirectory()) {
    throw new InputError(display, 'is a folder', 'give two MachineConfig files, or the folder with --from');
  }
  const docs = await readInputDocuments(file, opts);
  const out: Observed<MachineConfig>[] = [];
  const kinds = new Set<string>();
  docs.forEach(({ value: doc }, d) => {
    if (typeof doc !== 'object' || doc === null) return;
    const o = doc as Record<string, unknown>;
    const prefix = d === 0 ? '' : `documents[${d}].`;
    if (o.kind === 'MachineConfig') out.push(validate(o, display, prefix.slice(0, -1)));
    else if (Array.isArray(o.items)) {
      o.items.forEach((item, i) => {
        const kind = (item as Record<string, unknown> | null)?.kind;
        if (kind === 'MachineConfig') out.push(validate(item, display, `${prefix}items[${i}]`));
        else if (typeof kind === 'string') kinds.add(kind);
      });
    } else if (typeof o.kind === 'string') kinds.add(o.kind);
  });
  if (out.length === 0) {
    const found = kinds.size
      ? `found ${[...kinds]
          .slice(0, 5)
          .map((k) => printable(k, 40))
          .join(', ')}`
      : 'found none';
    throw new InputError(display, `no MachineConfig in this file (${found})`);
  }
  return out;
}
