/**
 * The semantic diff of two MachineConfigs (docs/domain.md 3.4): Ignition files, directories and links by
 * path, systemd units and drop-ins by name, kernel arguments as an ordered multiset, extensions,
 * osImageURL, FIPS, kernel type, users and their SSH keys, the Ignition version, and anything else the
 * config holds. Image references in changed lines are extracted and, given release payloads, named by
 * their release component.
 */
import type { MachineConfig, ReleasePayload, SourceRef } from '../model/index.js';
import { Budget, MCO, plural } from '../model/index.js';
import { ComponentIndex } from '../release/components.js';
import { DEFAULT_MAX_DECODED_BYTES } from './dataurl.js';
import { globToRegExp } from './glob.js';
import type { FileContents, NormalFile, NormalUnit, NormalUser, StorageNode } from './ignition.js';
import { imageChangesInLines } from './images.js';
import { type NormalSpec, normalizeSpec } from './spec.js';
import { allLines, DEFAULT_TEXT_DIFF, type DiffClock, diffText, type TextDiffOptions } from './text.js';
import type { ConfigChange, ConfigInfo, ConfigPart, ImageChange, MachineConfigDiff } from './types.js';

export interface DiffOptions {
  /** Keep only these parts. */
  readonly only?: readonly ConfigPart[];
  /** Keep only changes whose name (file path, unit name, `unit/drop-in`, field) matches this glob. */
  readonly path?: string;
  /** Release payloads before and after, to name the component of each image in a changed line. */
  readonly releases?: { readonly from?: ReleasePayload; readonly to?: ReleasePayload };
  /** Where each side was read from, so decoding errors name the file and the object's path in it. */
  readonly refs?: { readonly from?: SourceRef; readonly to?: SourceRef };
  /** Cap on any one decoded (and decompressed) file. */
  readonly maxFileBytes?: number;
  readonly text?: Partial<TextDiffOptions>;
  /** Added or removed text is shown whole up to this many lines. */
  readonly maxWholeLines?: number;
  /** The run's budget: data: URL bytes, tree depth and nodes, and text-diff time over the run. */
  readonly budget?: Budget;
}

export const PART_ORDER: readonly ConfigPart[] = [
  'ignitionVersion',
  'osImageURL',
  'kernelType',
  'fips',
  'kernelArguments',
  'extensions',
  'files',
  'units',
  'dropins',
  'passwd',
  'other',
];

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
type Change = Mutable<ConfigChange>;

interface Ctx {
  readonly text: TextDiffOptions;
  readonly maxWholeLines: number;
  readonly wants: (part: ConfigPart, name: string) => boolean;
  readonly clock: DiffClock;
}

const TEXT = new TextDecoder('utf-8', { fatal: true });

function asText(bytes: Buffer): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return TEXT.decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * node:crypto, loaded on the first digest (a binary file's, an SSH key's), not at import: most diffs
 * take none, and `atlevel diff`'s start-up is most of its time (docs/performance.md, "diff's start-up").
 */
function createHash(algorithm: string) {
  return process.getBuiltinModule('node:crypto').createHash(algorithm);
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function octal(mode: number | undefined): string {
  return mode === undefined ? 'unset' : `0${mode.toString(8).padStart(3, '0')}`;
}

function lineCount(text: string): number {
  if (text === '') return 0;
  const n = text.split('\n').length;
  return text.endsWith('\n') ? n - 1 : n;
}

function describeBytes(bytes: Buffer): string {
  const text = asText(bytes);
  if (text !== undefined) return `${plural(lineCount(text), 'line')}, ${plural(bytes.length, 'byte')}`;
  return `binary, ${plural(bytes.length, 'byte')}, sha256 ${sha256(bytes)}`;
}

function describeContents(c: FileContents | undefined): string {
  if (c === undefined) return 'no contents';
  const gz = c.compression ? ` (${c.compression})` : '';
  if (c.bytes) return describeBytes(c.bytes) + gz;
  if (c.remote) return `remote ${c.remote}${gz}`;
  return 'no contents';
}

function sameContents(a: FileContents | undefined, b: FileContents | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (a.remote !== b.remote || a.verification !== b.verification) return false;
  if (a.bytes === undefined || b.bytes === undefined) return a.bytes === b.bytes;
  // Compression is an encoding detail: the same bytes on disk are the same file.
  return a.bytes.equals(b.bytes);
}

function summariseNode(node: StorageNode): string {
  switch (node.kind) {
    case 'file': {
      const parts = [describeContents(node.contents)];
      if (node.append.length > 0) parts.push(`${plural(node.append.length, 'appended fragment')}`);
      parts.push(`mode ${octal(node.mode)}`);
      return parts.join(', ');
    }
    case 'directory':
      return `directory, mode ${octal(node.mode)}`;
    case 'link':
      return `${node.hard ? 'hard' : 'symbolic'} link to ${node.target}`;
  }
}

function ownershipAttributes(a: StorageNode, b: StorageNode): string[] {
  const out: string[] = [];
  if (a.user !== b.user) out.push(`user ${a.user ?? 'unset'} → ${b.user ?? 'unset'}`);
  if (a.group !== b.group) out.push(`group ${a.group ?? 'unset'} → ${b.group ?? 'unset'}`);
  if (a.overwrite !== b.overwrite) out.push(`overwrite ${a.overwrite} → ${b.overwrite}`);
  return out;
}

/** Text diff fields for a change between two texts (either may be absent: added or removed). */
function textFields(
  before: string | undefined,
  after: string | undefined,
  ctx: Ctx,
): Pick<Change, 'textDiff' | 'changedLines' | 'images'> {
  let lines: { before?: string; after?: string }[];
  let hunks: string | undefined;
  if (before !== undefined && after !== undefined) {
    const d = diffText(before, after, ctx.text, ctx.clock);
    lines = d.changedLines;
    hunks = d.hunks;
    if (hunks === undefined) {
      // The diff gave up: still name the images, from every line of each side.
      lines = [...allLines(before, 'before'), ...allLines(after, 'after')];
    }
  } else {
    const text = before ?? after ?? '';
    lines = allLines(text, before !== undefined ? 'before' : 'after');
    if (lineCount(text) <= ctx.maxWholeLines) {
      hunks = diffText(before ?? '', after ?? '', ctx.text, ctx.clock).hunks;
    }
  }
  const images = imageChangesInLines(lines);
  const isWhole = before === undefined || after === undefined;
  return {
    ...(hunks !== undefined && hunks !== '' ? { textDiff: hunks } : {}),
    ...(!isWhole && lines.length > 0 ? { changedLines: lines } : {}),
    ...(images.length > 0 ? { images } : {}),
  };
}

function textOf(c: FileContents | undefined): string | undefined {
  return c?.bytes ? asText(c.bytes) : undefined;
}

function diffStorage(a: NormalSpec, b: NormalSpec, ctx: Ctx, out: Change[]): void {
  const paths = new Set([...a.ignition.storage.keys(), ...b.ignition.storage.keys()]);
  for (const path of [...paths].sort()) {
    if (!ctx.wants('files', path)) continue;
    const x = a.ignition.storage.get(path);
    const y = b.ignition.storage.get(path);
    if (x === undefined && y !== undefined) {
      out.push({
        part: 'files',
        name: path,
        change: 'added',
        after: summariseNode(y),
        ...(y.kind === 'file' ? textFields(undefined, textOf(y.contents), ctx) : {}),
      });
    } else if (x !== undefined && y === undefined) {
      out.push({
        part: 'files',
        name: path,
        change: 'removed',
        before: summariseNode(x),
        ...(x.kind === 'file' ? textFields(textOf(x.contents), undefined, ctx) : {}),
      });
    } else if (x !== undefined && y !== undefined) {
      const change = diffNode(x, y, ctx);
      if (change) out.push(change);
    }
  }
}

function diffNode(x: StorageNode, y: StorageNode, ctx: Ctx): Change | undefined {
  const base = { part: 'files' as const, name: x.path, change: 'modified' as const };
  if (x.kind !== y.kind) return { ...base, before: summariseNode(x), after: summariseNode(y) };
  const attributes = ownershipAttributes(x, y);
  if (x.kind === 'directory' && y.kind === 'directory') {
    if (x.mode !== y.mode) attributes.unshift(`mode ${octal(x.mode)} → ${octal(y.mode)}`);
    return attributes.length > 0 ? { ...base, attributes } : undefined;
  }
  if (x.kind === 'link' && y.kind === 'link') {
    if (x.hard !== y.hard) attributes.unshift(`hard ${x.hard} → ${y.hard}`);
    if (x.target !== y.target) {
      return {
        ...base,
        before: summariseNode(x),
        after: summariseNode(y),
        ...(attributes.length ? { attributes } : {}),
      };
    }
    return attributes.length > 0 ? { ...base, attributes } : undefined;
  }
  return diffFile(x as NormalFile, y as NormalFile, attributes, ctx);
}

function diffFile(x: NormalFile, y: NormalFile, attributes: string[], ctx: Ctx): Change | undefined {
  if (x.mode !== y.mode) attributes.unshift(`mode ${octal(x.mode)} → ${octal(y.mode)}`);
  if ((x.contents?.compression ?? '') !== (y.contents?.compression ?? '')) {
    attributes.push(
      `compression ${x.contents?.compression ?? 'none'} → ${y.contents?.compression ?? 'none'}`,
    );
  }
  const appendChanged =
    x.append.length !== y.append.length || x.append.some((f, i) => !sameContents(f, y.append[i]));
  if (appendChanged) {
    attributes.push(`append ${describeAppend(x.append)} → ${describeAppend(y.append)}`);
  }
  const contentsChanged = !sameContents(x.contents, y.contents);
  if (!contentsChanged && attributes.length === 0) return undefined;
  const change: Change = { part: 'files', name: x.path, change: 'modified' };
  if (attributes.length > 0) change.attributes = attributes;
  if (contentsChanged) {
    change.before = describeContents(x.contents);
    change.after = describeContents(y.contents);
    const tx = textOf(x.contents);
    const ty = textOf(y.contents);
    if (tx !== undefined && ty !== undefined) Object.assign(change, textFields(tx, ty, ctx));
    else if (x.contents?.remote !== undefined || y.contents?.remote !== undefined) {
      const images = imageChangesInLines([
        {
          ...(x.contents?.remote ? { before: x.contents.remote } : {}),
          ...(y.contents?.remote ? { after: y.contents.remote } : {}),
        },
      ]);
      if (images.length > 0) change.images = images;
    }
  }
  if (appendChanged) {
    const ax = joinAppend(x.append);
    const ay = joinAppend(y.append);
    if (ax !== undefined && ay !== undefined && change.textDiff === undefined) {
      Object.assign(change, textFields(ax, ay, ctx));
    }
  }
  return change;
}

function describeAppend(fragments: readonly FileContents[]): string {
  if (fragments.length === 0) return 'none';
  const bytes = fragments.reduce((n, f) => n + (f.bytes?.length ?? 0), 0);
  return `${plural(fragments.length, 'fragment')} (${plural(bytes, 'byte')})`;
}

function joinAppend(fragments: readonly FileContents[]): string | undefined {
  let out = '';
  for (const f of fragments) {
    const t = textOf(f);
    if (t === undefined) return undefined;
    out += t;
  }
  return out;
}

function describeUnit(u: NormalUnit): string {
  const parts = [u.contents === undefined ? 'no contents' : plural(lineCount(u.contents), 'line')];
  parts.push(`enabled ${u.enabled ?? 'unset'}`);
  if (u.mask) parts.push('masked');
  if (u.dropins.size > 0) parts.push(plural(u.dropins.size, 'drop-in'));
  return parts.join(', ');
}

function diffUnits(a: NormalSpec, b: NormalSpec, ctx: Ctx, out: Change[]): void {
  const names = new Set([...a.ignition.units.keys(), ...b.ignition.units.keys()]);
  for (const name of [...names].sort()) {
    const x = a.ignition.units.get(name);
    const y = b.ignition.units.get(name);
    if (ctx.wants('units', name)) {
      if (x === undefined && y !== undefined) {
        out.push({
          part: 'units',
          name,
          change: 'added',
          after: describeUnit(y),
          ...textFields(undefined, y.contents, ctx),
        });
      } else if (x !== undefined && y === undefined) {
        out.push({
          part: 'units',
          name,
          change: 'removed',
          before: describeUnit(x),
          ...textFields(x.contents, undefined, ctx),
        });
      } else if (x !== undefined && y !== undefined) {
        const attributes: string[] = [];
        if (x.enabled !== y.enabled)
          attributes.push(`enabled ${x.enabled ?? 'unset'} → ${y.enabled ?? 'unset'}`);
        if (x.mask !== y.mask) attributes.push(`mask ${x.mask} → ${y.mask}`);
        const contentsChanged = x.contents !== y.contents;
        if (contentsChanged || attributes.length > 0) {
          const change: Change = { part: 'units', name, change: 'modified' };
          if (attributes.length > 0) change.attributes = attributes;
          if (contentsChanged) {
            change.before = x.contents === undefined ? 'no contents' : plural(lineCount(x.contents), 'line');
            change.after = y.contents === undefined ? 'no contents' : plural(lineCount(y.contents), 'line');
            Object.assign(change, textFields(x.contents, y.contents, ctx));
          }
          out.push(change);
        }
      }
    }
    diffDropins(name, x, y, ctx, out);
  }
}

function diffDropins(
  unit: string,
  x: NormalUnit | undefined,
  y: NormalUnit | undefined,
  ctx: Ctx,
  out: Change[],
): void {
  const xs = x?.dropins ?? new Map<string, string>();
  const ys = y?.dropins ?? new Map<string, string>();
  const names = new Set([...xs.keys(), ...ys.keys()]);
  for (const dropin of [...names].sort()) {
    const name = `${unit}/${dropin}`;
    if (!ctx.wants('dropins', name)) continue;
    const before = xs.get(dropin);
    const after = ys.get(dropin);
    if (before === after) continue;
    const change: Change = {
      part: 'dropins',
      name,
      change: before === undefined ? 'added' : after === undefined ? 'removed' : 'modified',
      ...(before !== undefined ? { before: plural(lineCount(before), 'line') } : {}),
      ...(after !== undefined ? { after: plural(lineCount(after), 'line') } : {}),
      ...textFields(before, after, ctx),
    };
    out.push(change);
  }
}

/** `ssh-rsa SHA256:… comment`, like ssh-keygen -l, so keys can be told apart without printing them. */
function keyLabel(key: string): string {
  const [type, blob, ...comment] = key.split(/\s+/);
  if (!blob || !/^[A-Za-z0-9+/]+=*$/.test(blob)) return `${(type ?? '').slice(0, 20)} (unparsed key)`;
  const fp = createHash('sha256').update(Buffer.from(blob, 'base64')).digest('base64').replace(/=+$/, '');
  return [type, `SHA256:${fp}`, ...comment].join(' ');
}

function describeUser(u: NormalUser): string {
  return `${plural(u.sshAuthorizedKeys.length, 'SSH key')}${u.passwordHash ? ', password set' : ''}`;
}

function diffUsers(a: NormalSpec, b: NormalSpec, ctx: Ctx, out: Change[]): void {
  const names = new Set([...a.ignition.users.keys(), ...b.ignition.users.keys()]);
  for (const name of [...names].sort()) {
    if (!ctx.wants('passwd', name)) continue;
    const x = a.ignition.users.get(name);
    const y = b.ignition.users.get(name);
    if (x === undefined && y !== undefined)
      out.push({ part: 'passwd', name, change: 'added', after: describeUser(y) });
    else if (x !== undefined && y === undefined)
      out.push({ part: 'passwd', name, change: 'removed', before: describeUser(x) });
    else if (x !== undefined && y !== undefined) {
      const attributes: string[] = [];
      const { removed, added } = multisetDiff(x.sshAuthorizedKeys, y.sshAuthorizedKeys);
      for (const k of removed) attributes.push(`SSH key removed: ${keyLabel(k)}`);
      for (const k of added) attributes.push(`SSH key added: ${keyLabel(k)}`);
      if (x.passwordHash !== y.passwordHash) {
        attributes.push(
          `password ${x.passwordHash ? 'set' : 'unset'} → ${y.passwordHash ? (x.passwordHash ? 'changed' : 'set') : 'unset'}`,
        );
      }
      if (x.rest !== y.rest) attributes.push('other user fields changed');
      if (attributes.length > 0) {
        out.push({
          part: 'passwd',
          name,
          change: 'modified',
          before: describeUser(x),
          after: describeUser(y),
          attributes,
        });
      }
    }
  }
}

/**
 * Removed and added elements of two lists counted with multiplicity, each in its list's order, and what
 * each list keeps (its elements minus the removed/added occurrences: the later repeats go first).
 */
function multisetDiff(
  a: readonly string[],
  b: readonly string[],
): { removed: string[]; added: string[]; keptA: string[]; keptB: string[] } {
  const split = (xs: readonly string[], other: readonly string[]) => {
    const count = new Map<string, number>();
    for (const x of other) count.set(x, (count.get(x) ?? 0) + 1);
    const kept: string[] = [];
    const extra: string[] = [];
    for (const x of xs) {
      const n = count.get(x) ?? 0;
      if (n > 0) {
        count.set(x, n - 1);
        kept.push(x);
      } else extra.push(x);
    }
    return { kept, extra };
  };
  const fromA = split(a, b);
  const fromB = split(b, a);
  return { removed: fromA.extra, added: fromB.extra, keptA: fromA.kept, keptB: fromB.kept };
}

function kargKey(arg: string): string {
  const eq = arg.indexOf('=');
  return eq === -1 ? arg : arg.slice(0, eq);
}

/**
 * Kernel arguments are an ordered multiset: the MCO applies them in order and a repeated key is
 * meaningful (`y=0 y=1`). A key that lost one value and gained another is one `modified` change; the
 * rest are added/removed; and if the arguments both sides share come in a different order, that is a
 * change of its own.
 */
function diffArgs(
  label: string,
  a: readonly string[],
  b: readonly string[],
  ctx: Ctx,
  out: Change[],
  via?: string,
): void {
  const { removed, added, keptA, keptB } = multisetDiff(a, b);
  const attributes = via ? { attributes: [via] } : {};
  const removedByKey = groupByKey(removed);
  const addedByKey = groupByKey(added);
  const changes: Change[] = [];
  for (const arg of removed) {
    const key = kargKey(arg);
    const r = removedByKey.get(key) ?? [];
    const n = addedByKey.get(key) ?? [];
    if (r.length === 1 && n.length === 1 && arg.includes('=')) {
      changes.push({
        part: 'kernelArguments',
        name: key,
        change: 'modified',
        before: arg,
        after: n[0]!,
        ...attributes,
      });
    } else
      changes.push({ part: 'kernelArguments', name: arg, change: 'removed', before: arg, ...attributes });
  }
  for (const arg of added) {
    const key = kargKey(arg);
    const r = removedByKey.get(key) ?? [];
    const n = addedByKey.get(key) ?? [];
    if (r.length === 1 && n.length === 1 && r[0]!.includes('=')) continue;
    changes.push({ part: 'kernelArguments', name: arg, change: 'added', after: arg, ...attributes });
  }
  // The arguments both sides keep, in a different order, are a change of their own.
  if (keptA.join('\u0000') !== keptB.join('\u0000')) {
    changes.push({
      part: 'kernelArguments',
      name: `${label}(order)`,
      change: 'modified',
      before: a.join(' '),
      after: b.join(' '),
      ...attributes,
    });
  }
  for (const c of changes) if (ctx.wants('kernelArguments', c.name)) out.push(c);
}

function groupByKey(args: readonly string[]): Map<string, string[]> {
  const m = new Map<string, string[]>();
  for (const arg of args) {
    const key = kargKey(arg);
    const list = m.get(key);
    if (list) list.push(arg);
    else m.set(key, [arg]);
  }
  return m;
}

function diffScalars(a: NormalSpec, b: NormalSpec, ctx: Ctx, out: Change[]): void {
  const scalar = (
    part: ConfigPart,
    name: string,
    x: string | undefined,
    y: string | undefined,
    images?: boolean,
  ) => {
    if (x === y || !ctx.wants(part, name)) return;
    const change: Change = {
      part,
      name,
      change: x === undefined ? 'added' : y === undefined ? 'removed' : 'modified',
      ...(x !== undefined ? { before: x } : {}),
      ...(y !== undefined ? { after: y } : {}),
    };
    if (images) {
      const found = imageChangesInLines([
        { ...(x !== undefined ? { before: x } : {}), ...(y !== undefined ? { after: y } : {}) },
      ]);
      if (found.length > 0) change.images = found;
    }
    out.push(change);
  };
  scalar('ignitionVersion', 'ignition.version', a.ignition.version, b.ignition.version);
  scalar('osImageURL', 'osImageURL', a.osImageURL, b.osImageURL, true);
  scalar('kernelType', 'kernelType', a.kernelType, b.kernelType);
  scalar('fips', 'fips', String(a.fips), String(b.fips));
}

function diffExtensions(a: NormalSpec, b: NormalSpec, ctx: Ctx, out: Change[]): void {
  const { removed, added } = multisetDiff(a.extensions, b.extensions);
  for (const name of removed)
    if (ctx.wants('extensions', name))
      out.push({ part: 'extensions', name, change: 'removed', before: name });
  for (const name of added)
    if (ctx.wants('extensions', name)) out.push({ part: 'extensions', name, change: 'added', after: name });
}

function shorten(json: string): string {
  return json.length > 200 ? `${json.slice(0, 199)}…` : json;
}

function diffOther(a: NormalSpec, b: NormalSpec, ctx: Ctx, out: Change[]): void {
  const maps: [string, ReadonlyMap<string, string>, ReadonlyMap<string, string>][] = [
    ['spec.', a.other, b.other],
    ['config.', a.ignition.other, b.ignition.other],
  ];
  for (const [prefix, x, y] of maps) {
    for (const key of [...new Set([...x.keys(), ...y.keys()])].sort()) {
      const name = `${prefix}${key}`;
      const before = x.get(key);
      const after = y.get(key);
      if (before === after || !ctx.wants('other', name)) continue;
      out.push({
        part: 'other',
        name,
        change: before === undefined ? 'added' : after === undefined ? 'removed' : 'modified',
        ...(before !== undefined ? { before: shorten(before) } : {}),
        ...(after !== undefined ? { after: shorten(after) } : {}),
      });
    }
  }
}

/**
 * Name each changed image by its release component: the image a line holds now by the release that
 * has it (the target first), a removed image by the release that had it. A new image no release names
 * gets no component even when the image it replaced had one: which component it is, is not known.
 */
function attribute(changes: Change[], releases: DiffOptions['releases']): void {
  if (!releases?.from && !releases?.to) return;
  const from = new ComponentIndex([releases.from]);
  const to = new ComponentIndex([releases.to]);
  for (const change of changes) {
    if (!change.images) continue;
    change.images = change.images.map((img): ImageChange => {
      const component =
        img.after !== undefined
          ? (to.componentOf(img.after) ?? from.componentOf(img.after))
          : img.before !== undefined
            ? (from.componentOf(img.before) ?? to.componentOf(img.before))
            : undefined;
      if (component) return { ...img, component };
      const replaced =
        img.after !== undefined && img.before !== undefined ? from.componentOf(img.before) : undefined;
      return replaced ? { ...img, replaced } : img;
    });
  }
}

function info(mc: MachineConfig, spec: NormalSpec, ref: SourceRef | undefined): ConfigInfo {
  const a = mc.metadata.annotations ?? {};
  const created = mc.metadata.creationTimestamp;
  return {
    name: mc.metadata.name,
    ...(created ? { created } : {}),
    ...(a[MCO.generatedByControllerVersion]
      ? { controllerVersion: a[MCO.generatedByControllerVersion] }
      : {}),
    ...(a[MCO.releaseImageVersion] ? { releaseImageVersion: a[MCO.releaseImageVersion] } : {}),
    ...(spec.ignition.version ? { ignitionVersion: spec.ignition.version } : {}),
    ...(ref ? { file: ref.file } : {}),
  };
}

function matcher(opts: DiffOptions): Ctx['wants'] {
  const only = opts.only ? new Set(opts.only) : undefined;
  const glob = opts.path ? globToRegExp(opts.path) : undefined;
  return (part, name) => {
    if (only && !only.has(part)) return false;
    if (!glob) return true;
    if (glob.test(name)) return true;
    // A drop-in also matches through its unit's name (`--path kubelet.service`).
    return part === 'dropins' && glob.test(name.slice(0, name.indexOf('/')));
  };
}

/** The semantic diff of two MachineConfigs. Throws InputError when a side's Ignition cannot be decoded. */
export function diffMachineConfigs(
  a: MachineConfig,
  b: MachineConfig,
  opts: DiffOptions = {},
): MachineConfigDiff {
  const maxFileBytes = opts.maxFileBytes ?? DEFAULT_MAX_DECODED_BYTES;
  const budget = opts.budget ?? new Budget();
  const x = normalizeSpec(a, opts.refs?.from, maxFileBytes, budget);
  const y = normalizeSpec(b, opts.refs?.to, maxFileBytes, budget);
  const file = opts.refs?.to?.file ?? opts.refs?.from?.file ?? `MachineConfig/${b.metadata.name}`;
  const ctx: Ctx = {
    text: { ...DEFAULT_TEXT_DIFF, ...opts.text },
    maxWholeLines: opts.maxWholeLines ?? 200,
    wants: matcher(opts),
    // Without a run budget (a library call), this one diff gets the documented defaults to itself.
    clock: { budget, file },
  };
  const changes: Change[] = [];
  diffScalars(x, y, ctx, changes);
  diffArgs('', x.kernelArguments, y.kernelArguments, ctx, changes);
  diffArgs(
    'ignition.shouldExist',
    x.ignition.kernelArguments.shouldExist,
    y.ignition.kernelArguments.shouldExist,
    ctx,
    changes,
    'Ignition kernelArguments.shouldExist',
  );
  diffArgs(
    'ignition.shouldNotExist',
    x.ignition.kernelArguments.shouldNotExist,
    y.ignition.kernelArguments.shouldNotExist,
    ctx,
    changes,
    'Ignition kernelArguments.shouldNotExist',
  );
  diffExtensions(x, y, ctx, changes);
  diffStorage(x, y, ctx, changes);
  diffUnits(x, y, ctx, changes);
  diffUsers(x, y, ctx, changes);
  diffOther(x, y, ctx, changes);
  attribute(changes, opts.releases);
  const rank = (p: ConfigPart) => PART_ORDER.indexOf(p);
  // Stable: within a part the order above (sorted names, args in their order) is kept.
  changes.sort((p, q) => rank(p.part) - rank(q.part));
  const filter = {
    ...(opts.only ? { only: opts.only } : {}),
    ...(opts.path ? { path: opts.path } : {}),
  };
  return {
    from: a.metadata.name,
    to: b.metadata.name,
    identical: changes.length === 0,
    changes,
    fromInfo: info(a, x, opts.refs?.from),
    toInfo: info(b, y, opts.refs?.to),
    ...(Object.keys(filter).length > 0 ? { filter } : {}),
  };
}
