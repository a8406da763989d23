/**
 * Rendering (docs/domain.md 3.1–3.2): merge a pool's MachineConfigs in name order into one spec, name it
 * `rendered-<pool>-<hex MD5 of a salt and the merged spec>`, and decide what applying it to a node
 * takes (docs/domain.md 3.6: any unit, OS, kernel argument, FIPS, kernel type or extension change reboots).
 * Results are memoised by content identity, so exploring thousands of seeds renders each config once.
 */
import { md5Hex } from './hash.js';
import { specJson } from './ignition.js';
import type { IgnFile, IgnUnit, MachineConfigObj, MachineConfigSpec } from './objects.js';

/** This project's salt (MCO uses its own fixed bytes; only the shape of the name matters here). */
export const RENDER_SALT =
  'atlevel-simulator:rendered-config-name:v1:do-not-change-or-every-rendered-name-moves';

export interface Rendered {
  readonly name: string;
  readonly spec: MachineConfigSpec;
  readonly contentKey: string;
  readonly source: readonly string[];
}

const renderMemo = new Map<string, Rendered>();

/** `sources` must be sorted by name (the lister order the merge relies on). */
export function renderPool(pool: string, sources: readonly MachineConfigObj[], osImageURL: string): Rendered {
  let key = `${pool}|${osImageURL}`;
  for (const mc of sources) key += `|${mc.contentKey}`;
  const hit = renderMemo.get(key);
  if (hit) return hit;
  const spec = merge(sources, osImageURL);
  const hash = md5Hex(RENDER_SALT + JSON.stringify(specJson(spec)));
  const out: Rendered = {
    name: `rendered-${pool}-${hash}`,
    spec,
    contentKey: `rendered|${hash}`,
    source: sources.map((mc) => mc.meta.name),
  };
  renderMemo.set(key, out);
  return out;
}

function merge(sources: readonly MachineConfigObj[], osImageURL: string): MachineConfigSpec {
  const files = new Map<string, IgnFile>();
  const units = new Map<string, IgnUnit>();
  const keys: string[] = [];
  const kargs: string[] = [];
  const extensions: string[] = [];
  let fips = false;
  let realtime = false;
  for (const mc of sources) {
    const s = mc.spec;
    for (const f of s.config.files) files.set(f.path, f);
    for (const u of s.config.units) units.set(u.name, u);
    for (const k of s.config.sshKeys) if (!keys.includes(k)) keys.push(k);
    kargs.push(...s.kernelArguments);
    extensions.push(...s.extensions);
    fips ||= s.fips;
    realtime ||= s.kernelType === 'realtime';
  }
  return {
    osImageURL,
    config: { files: [...files.values()], units: [...units.values()], sshKeys: keys },
    kernelArguments: kargs,
    extensions,
    fips,
    kernelType: realtime ? 'realtime' : 'default',
  };
}

export type PostConfigAction = 'none' | 'reload-crio' | 'reboot';

/** Files whose change needs no reboot in 4.10 (docs/domain.md 3.6). */
const NO_ACTION = new Set(['/etc/kubernetes/kubelet-ca.crt', '/var/lib/kubelet/config.json']);
const RELOAD_CRIO = new Set(['/etc/containers/registries.conf', '/etc/containers/policy.json']);

const actionMemo = new Map<string, PostConfigAction>();

export function postConfigAction(from: MachineConfigObj | undefined, to: MachineConfigObj): PostConfigAction {
  if (!from) return 'reboot';
  if (from.contentKey === to.contentKey) return 'none';
  const key = `${from.contentKey}>${to.contentKey}`;
  const hit = actionMemo.get(key);
  if (hit) return hit;
  const action = decide(from.spec, to.spec);
  actionMemo.set(key, action);
  return action;
}

function decide(a: MachineConfigSpec, b: MachineConfigSpec): PostConfigAction {
  if (
    a.osImageURL !== b.osImageURL ||
    a.fips !== b.fips ||
    a.kernelType !== b.kernelType ||
    a.kernelArguments.join('\0') !== b.kernelArguments.join('\0') ||
    a.extensions.join('\0') !== b.extensions.join('\0') ||
    a.config.sshKeys.join('\0') !== b.config.sshKeys.join('\0')
  ) {
    return 'reboot';
  }
  const unitsA = new Map(a.config.units.map((u) => [u.name, JSON.stringify(u)]));
  if (unitsA.size !== b.config.units.length) return 'reboot';
  for (const u of b.config.units) if (unitsA.get(u.name) !== JSON.stringify(u)) return 'reboot';
  const filesA = new Map(a.config.files.map((f) => [f.path, f]));
  const changed = new Set<string>();
  for (const f of b.config.files) {
    const old = filesA.get(f.path);
    if (!old || old.contents !== f.contents || old.mode !== f.mode) changed.add(f.path);
    filesA.delete(f.path);
  }
  for (const path of filesA.keys()) changed.add(path);
  let action: PostConfigAction = 'none';
  for (const path of changed) {
    if (NO_ACTION.has(path)) continue;
    if (RELOAD_CRIO.has(path)) action = 'reload-crio';
    else return 'reboot';
  }
  return action;
}
