/**
 * Read MachineConfigs from one file for `atlevel diff A.yaml B.yaml`: a MachineConfig, a List of
 * them (`oc get mc -o yaml`, gather-extra's machineconfigs.json), or several YAML documents.
 * Whole sources (must-gathers, folders, tarballs) go through src/sources instead.
 */
import { readFile, stat } from 'node:fs/promises';
import yaml from 'js-yaml';
import { InputError, printable } from '../model/errors.js';
import type { Observed } from '../model/history.js';
import { type MachineConfig, MachineConfigSchema } from '../model/objects.js';

const MAX_BYTES = 2 * 1024 * 1024 * 1024;

function documents(text: string, file: string): unknown[] {
  const t = text.trimStart();
  if (t.startsWith('{')) {
    try {
      return [JSON.parse(text)];
    } catch {
      // Not JSON after all: YAML flow syntax, or broken; YAML says which.
    }
  }
  try {
    return yaml.loadAll(text, undefined, { schema: yaml.CORE_SCHEMA, filename: file });
  } catch (err) {
    const reason = err instanceof yaml.YAMLException ? err.reason : String(err);
    const line = err instanceof yaml.YAMLException ? ` at line ${err.mark.line + 1}` : '';
    throw new InputError(file, `not YAML or JSON${line}: ${printable(reason, 120)}`);
  }
}

function validate(raw: unknown, file: string, path: string): Observed<MachineConfig> {
  const parsed = MachineConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const at = issue?.path.length ? `.${issue.path.join('.')}` : '';
    throw new InputError(file, `${path}: invalid MachineConfig${at}: ${issue?.message ?? 'invalid'}`);
  }
  return { object: parsed.data, ref: path === '' ? { file } : { file, path } };
}

/** Every MachineConfig in the file, with where it sits; throws InputError when there is none. */
export async function loadMachineConfigFile(file: string): Promise<Observed<MachineConfig>[]> {
  let text: string;
  try {
    const info = await stat(file);
    if (info.isDirectory()) {
      throw new InputError(file, 'is a folder', 'give two MachineConfig files, or the folder with --from');
    }
    if (info.size > MAX_BYTES) throw new InputError(file, `${info.size} bytes is too large`);
    text = await readFile(file, 'utf8');
  } catch (err) {
    if (err instanceof InputError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    throw new InputError(file, code === 'ENOENT' ? 'no such file' : `cannot read (${code ?? 'error'})`);
  }
  const out: Observed<MachineConfig>[] = [];
  const kinds = new Set<string>();
  documents(text, file).forEach((doc, d) => {
    if (typeof doc !== 'object' || doc === null) return;
    const o = doc as Record<string, unknown>;
    const prefix = d === 0 ? '' : `documents[${d}].`;
    if (o.kind === 'MachineConfig') out.push(validate(o, file, prefix.slice(0, -1)));
    else if (Array.isArray(o.items)) {
      o.items.forEach((item, i) => {
        const kind = (item as Record<string, unknown> | null)?.kind;
        if (kind === 'MachineConfig') out.push(validate(item, file, `${prefix}items[${i}]`));
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
    throw new InputError(file, `no MachineConfig in this file (${found})`);
  }
  return out;
}
