/**
 * Ignition spec 2.x and 3.x configs (a MachineConfig's `spec.config`) normalised into one model that
 * the diff compares: files/directories/links by path with decoded contents, units by name with their
 * drop-ins, users by name, Ignition kernel arguments, and whatever else the config holds, canonicalised.
 * Spec differences (2.x `filesystem`, `append: true`, `enable`, overwrite defaults) are resolved here
 * so that a 2.x and a 3.x config saying the same thing compare equal.
 */
import { Budget, InputError } from '../model/index.js';
import { DataUrlError, decodeDataUrl, decompress, isDataUrl } from './dataurl.js';

type Json = Record<string, unknown>;

export interface FileContents {
  /** Decoded bytes of a data URL, or undefined for a remote source (http, s3, tftp...). */
  readonly bytes?: Buffer;
  /** A source that is not a data URL: the URL itself is what we can compare. */
  readonly remote?: string;
  readonly compression?: string;
  readonly verification?: string;
}

export interface NormalFile {
  readonly kind: 'file';
  readonly path: string;
  /** undefined: the config does not set contents (Ignition leaves or creates an empty file). */
  readonly contents?: FileContents;
  readonly append: readonly FileContents[];
  readonly mode?: number;
  readonly user?: string;
  readonly group?: string;
  readonly overwrite: boolean;
}

interface NormalDirectory {
  readonly kind: 'directory';
  readonly path: string;
  readonly mode?: number;
  readonly user?: string;
  readonly group?: string;
  readonly overwrite: boolean;
}

interface NormalLink {
  readonly kind: 'link';
  readonly path: string;
  readonly target: string;
  readonly hard: boolean;
  readonly user?: string;
  readonly group?: string;
  readonly overwrite: boolean;
}

export type StorageNode = NormalFile | NormalDirectory | NormalLink;

export interface NormalUnit {
  readonly name: string;
  readonly contents?: string;
  /** undefined: the config does not say (systemd presets decide). */
  readonly enabled?: boolean;
  readonly mask: boolean;
  readonly dropins: ReadonlyMap<string, string>;
}

export interface NormalUser {
  readonly name: string;
  /** One entry per key (an entry holding several newline-separated keys is split). */
  readonly sshAuthorizedKeys: readonly string[];
  readonly passwordHash?: string;
  /** Every other field, canonical JSON, for a catch-all comparison. */
  readonly rest: string;
}

export interface NormalIgnition {
  readonly version?: string;
  readonly specMajor?: number;
  readonly storage: ReadonlyMap<string, StorageNode>;
  readonly units: ReadonlyMap<string, NormalUnit>;
  readonly users: ReadonlyMap<string, NormalUser>;
  readonly kernelArguments: {
    readonly shouldExist: readonly string[];
    readonly shouldNotExist: readonly string[];
  };
  /** Sections this model does not interpret (`storage.disks`, `passwd.groups`, `ignition.config`...), canonical JSON. */
  readonly other: ReadonlyMap<string, string>;
}

export interface DecodeContext {
  /** File the MachineConfig came from (or `MachineConfig/<name>`), for errors. */
  readonly file: string;
  /** JSON path of the config inside that file, e.g. `items[3].spec.config`. */
  readonly at: string;
  /** The MachineConfig's name, so that an error inside a List names the object too. */
  readonly name?: string;
  readonly maxFileBytes: number;
  /** The run's budget: decoded data: URL bytes per config and in total, tree depth and nodes. */
  readonly budget?: Budget;
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** Where a canonical walk may go: the run's depth and node limits, and the file to name when over. */
export interface WalkLimits {
  readonly budget?: Budget;
  readonly file?: string;
}

interface Frame {
  readonly value: object;
  /** The key this node sits under in its parent object (undefined in an array or at the top). */
  readonly key: string | undefined;
  readonly keys: readonly string[] | undefined;
  next: number;
  readonly parts: string[];
}

/**
 * JSON with sorted keys and empty values dropped, so `{}`/`[]`/`null`/absent compare equal.
 *
 * The config is untrusted: it may nest thousands deep, repeat one YAML anchor a billion times, or hold
 * an alias cycle. So the walk keeps its own stack (never the call stack), counts every node it visits
 * (after alias expansion) against the run's tree-node limit, caps depth at the tree-depth limit, and
 * refuses a node that contains itself.
 */
export function canonicalJson(value: unknown, limits: WalkLimits = {}): string | undefined {
  const budget = limits.budget ?? DEFAULT_WALK_BUDGET;
  const file = limits.file ?? 'MachineConfig';
  const maxDepth = budget.limits.treeDepth;
  const maxNodes = budget.limits.treeNodes;
  let nodes = 0;
  const onPath = new Set<object>();
  const stack: Frame[] = [];
  let result: string | undefined;
  // `done` hands a finished child's text to its parent frame (or to the result at the top).
  const done = (text: string | undefined, key: string | undefined): void => {
    const parent = stack.at(-1);
    if (parent === undefined) result = text;
    else if (text !== undefined)
      parent.parts.push(key === undefined ? text : `${JSON.stringify(key)}:${text}`);
  };
  const visit = (v: unknown, key: string | undefined): void => {
    if (++nodes > maxNodes) budget.over('treeNodes', file);
    if (v === null || v === undefined || typeof v === 'function' || typeof v === 'symbol') {
      done(undefined, key);
      return;
    }
    if (typeof v !== 'object') {
      // bigint is not JSON; YAML's core schema never makes one, but say something rather than throw.
      done(typeof v === 'bigint' ? JSON.stringify(String(v)) : JSON.stringify(v), key);
      return;
    }
    if (onPath.has(v)) {
      throw new InputError(file, 'the config contains itself (a YAML alias cycle)', 'remove the cycle');
    }
    if (stack.length >= maxDepth) budget.over('treeDepth', file);
    onPath.add(v);
    stack.push({
      value: v,
      key,
      keys: Array.isArray(v) ? undefined : Object.keys(v).sort(),
      next: 0,
      parts: [],
    });
  };
  visit(value, undefined);
  while (stack.length > 0) {
    const top = stack.at(-1)!;
    const arr = top.keys === undefined ? (top.value as unknown[]) : undefined;
    const size = arr ? arr.length : top.keys!.length;
    if (top.next < size) {
      const i = top.next++;
      if (arr) visit(arr[i], undefined);
      else {
        const k = top.keys![i]!;
        visit((top.value as Json)[k], k);
      }
      continue;
    }
    stack.pop();
    onPath.delete(top.value);
    const text =
      top.parts.length === 0 ? undefined : arr ? `[${top.parts.join(',')}]` : `{${top.parts.join(',')}}`;
    done(text, top.key);
  }
  return result;
}

/** Limits for a walk whose caller has no run budget (library use, tests): the documented defaults. */
const DEFAULT_WALK_BUDGET = new Budget();

/** `core`, `id 0`, or `core (id 0)`. */
function owner(value: unknown): string | undefined {
  if (!isObject(value)) return undefined;
  const name = str(value.name);
  const id = typeof value.id === 'number' ? value.id : undefined;
  if (name && id !== undefined) return `${name} (id ${id})`;
  if (name) return name;
  if (id !== undefined) return `id ${id}`;
  return undefined;
}

function mode(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) ? value : undefined;
}

class Decoder {
  /** Decoded data: URL bytes of this config so far, charged against the per-config limit. */
  #configBytes = 0;
  readonly budget: Budget;

  constructor(private readonly ctx: DecodeContext) {
    this.budget = ctx.budget ?? DEFAULT_WALK_BUDGET;
  }

  get walk(): WalkLimits {
    return { budget: this.budget, file: this.ctx.file };
  }

  /**
   * Decode one data: URL's contents within both caps: the per-file cap, and what is left of the
   * run's data: URL budget (per config and in total). Inflating stops at the smaller, so a config of
   * many small bombs cannot grow the process past the budget either.
   */
  #decode(bytes: Buffer, compression: string | undefined): Buffer {
    const { dataUrlBytesPerConfig } = this.budget.limits;
    const perConfigLeft = dataUrlBytesPerConfig - this.#configBytes;
    const totalLeft = this.budget.dataUrlTotalLeft();
    const budgetLeft = Math.max(0, Math.min(perConfigLeft, totalLeft));
    const byBudget = budgetLeft < this.ctx.maxFileBytes;
    let out: Buffer;
    try {
      // One byte over what is left is enough to know the budget is spent.
      out = decompress(bytes, compression, byBudget ? budgetLeft + 1 : this.ctx.maxFileBytes);
    } catch (err) {
      if (byBudget && err instanceof DataUrlError && err.overCap) {
        this.budget.over(
          perConfigLeft <= totalLeft ? 'dataUrlBytesPerConfig' : 'dataUrlBytesTotal',
          this.ctx.file,
        );
      }
      throw err;
    }
    this.#configBytes += out.length;
    this.budget.chargeDataUrl(out.length, this.#configBytes, this.ctx.file);
    return out;
  }

  fail(at: string, problem: string): never {
    throw new InputError(this.ctx.file, `${where(this.ctx)}.${at}: ${problem}`);
  }

  resource(value: unknown, at: string, label: string): FileContents | undefined {
    if (!isObject(value)) return undefined;
    const source = value.source;
    const compression = str(value.compression) || undefined;
    const verification = isObject(value.verification) ? str(value.verification.hash) : undefined;
    const extra = {
      ...(compression ? { compression } : {}),
      ...(verification ? { verification } : {}),
    };
    if (source === null || source === undefined) return Object.keys(extra).length ? extra : undefined;
    if (typeof source !== 'string') this.fail(`${at}.source`, `${label}: source is not a string`);
    if (!isDataUrl(source)) return { remote: source, ...extra };
    try {
      const decoded = decodeDataUrl(source);
      return { bytes: this.#decode(decoded.bytes, compression), ...extra };
    } catch (err) {
      if (err instanceof DataUrlError) this.fail(`${at}.source`, `${label}: ${err.message}`);
      throw err;
    }
  }

  file(raw: unknown, i: number, specMajor: number | undefined): NormalFile {
    const at = `storage.files[${i}]`;
    if (!isObject(raw) || typeof raw.path !== 'string' || raw.path === '') this.fail(at, 'file has no path');
    const fs = str(raw.filesystem);
    // Spec 2 addresses files per filesystem; only `root` is the node's root.
    const path = fs && fs !== 'root' ? `${fs}:${raw.path}` : raw.path;
    let contents = this.resource(raw.contents, `${at}.contents`, path);
    let append: FileContents[] = [];
    if (Array.isArray(raw.append)) {
      append = raw.append.flatMap((r, j) => this.resource(r, `${at}.append[${j}]`, path) ?? []);
    } else if (raw.append === true && contents) {
      // Spec 2: `append: true` means the contents are appended rather than written.
      append = [contents];
      contents = undefined;
    }
    const user = owner(raw.user);
    const group = owner(raw.group);
    const m = mode(raw.mode);
    return {
      kind: 'file',
      path,
      ...(contents ? { contents } : {}),
      append,
      ...(m !== undefined ? { mode: m } : {}),
      ...(user ? { user } : {}),
      ...(group ? { group } : {}),
      overwrite: overwriteOf(raw.overwrite, specMajor),
    };
  }

  directory(raw: unknown, i: number, specMajor: number | undefined): NormalDirectory {
    const at = `storage.directories[${i}]`;
    if (!isObject(raw) || typeof raw.path !== 'string' || raw.path === '')
      this.fail(at, 'directory has no path');
    const user = owner(raw.user);
    const group = owner(raw.group);
    const m = mode(raw.mode);
    return {
      kind: 'directory',
      path: raw.path,
      ...(m !== undefined ? { mode: m } : {}),
      ...(user ? { user } : {}),
      ...(group ? { group } : {}),
      overwrite: overwriteOf(raw.overwrite, specMajor),
    };
  }

  link(raw: unknown, i: number, specMajor: number | undefined): NormalLink {
    const at = `storage.links[${i}]`;
    if (!isObject(raw) || typeof raw.path !== 'string' || raw.path === '') this.fail(at, 'link has no path');
    const user = owner(raw.user);
    const group = owner(raw.group);
    return {
      kind: 'link',
      path: raw.path,
      target: str(raw.target) ?? '',
      hard: raw.hard === true,
      ...(user ? { user } : {}),
      ...(group ? { group } : {}),
      overwrite: overwriteOf(raw.overwrite, specMajor),
    };
  }

  unit(raw: unknown, i: number): NormalUnit {
    const at = `systemd.units[${i}]`;
    if (!isObject(raw) || typeof raw.name !== 'string' || raw.name === '') this.fail(at, 'unit has no name');
    const dropins = new Map<string, string>();
    list(raw.dropins).forEach((d, j) => {
      if (!isObject(d) || typeof d.name !== 'string' || d.name === '') {
        this.fail(`${at}.dropins[${j}]`, `${raw.name}: drop-in has no name`);
      }
      dropins.set(d.name, str(d.contents) ?? '');
    });
    // Spec 2.0 spelled it `enable`; later specs `enabled`.
    const enabled =
      typeof raw.enabled === 'boolean'
        ? raw.enabled
        : typeof raw.enable === 'boolean'
          ? raw.enable
          : undefined;
    const contents = str(raw.contents);
    return {
      name: raw.name,
      ...(contents !== undefined ? { contents } : {}),
      ...(enabled !== undefined ? { enabled } : {}),
      mask: raw.mask === true,
      dropins,
    };
  }

  user(raw: unknown, i: number): NormalUser {
    const at = `passwd.users[${i}]`;
    if (!isObject(raw) || typeof raw.name !== 'string' || raw.name === '') this.fail(at, 'user has no name');
    const { name, sshAuthorizedKeys, passwordHash, ...rest } = raw;
    const keys = list(sshAuthorizedKeys)
      .flatMap((k) => (typeof k === 'string' ? k.split('\n') : []))
      .map((k) => k.trim())
      .filter((k) => k !== '' && !k.startsWith('#'));
    return {
      name: raw.name,
      sshAuthorizedKeys: keys,
      ...(typeof passwordHash === 'string' && passwordHash !== '' ? { passwordHash } : {}),
      rest: canonicalJson(rest, this.walk) ?? '',
    };
  }
}

/** Spec 3 defaults `overwrite` to false; spec 2.2+ defaulted it to true for files. */
function overwriteOf(value: unknown, specMajor: number | undefined): boolean {
  if (typeof value === 'boolean') return value;
  return specMajor === 2;
}

/** The sections (and their keys) this model interprets. A Map: section names come from the input. */
const INTERPRETED: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['ignition', new Set(['version'])],
  ['storage', new Set(['files', 'directories', 'links'])],
  ['systemd', new Set(['units'])],
  ['passwd', new Set(['users'])],
  ['kernelArguments', new Set(['shouldExist', 'shouldNotExist'])],
]);

function otherSections(config: Json, walk: WalkLimits): Map<string, string> {
  const other = new Map<string, string>();
  for (const [section, value] of Object.entries(config)) {
    const known = INTERPRETED.get(section);
    if (known && isObject(value)) {
      for (const [key, inner] of Object.entries(value)) {
        if (known.has(key)) continue;
        const json = canonicalJson(inner, walk);
        if (json !== undefined) other.set(`${section}.${key}`, json);
      }
    } else if (!known) {
      const json = canonicalJson(value, walk);
      if (json !== undefined) other.set(section, json);
    }
  }
  return other;
}

function where(ctx: DecodeContext): string {
  return ctx.name ? `MachineConfig ${ctx.name} ${ctx.at}` : ctx.at;
}

function parseConfig(raw: unknown, ctx: DecodeContext): Json {
  if (raw === undefined || raw === null) return {};
  if (typeof raw === 'string') {
    // Some tools store the raw extension as a JSON string.
    try {
      raw = JSON.parse(raw);
    } catch {
      throw new InputError(ctx.file, `${where(ctx)}: config is a string that is not JSON`);
    }
  }
  if (!isObject(raw)) throw new InputError(ctx.file, `${where(ctx)}: config is not an object`);
  return raw;
}

export function normalizeIgnition(raw: unknown, ctx: DecodeContext): NormalIgnition {
  const config = parseConfig(raw, ctx);
  const d = new Decoder(ctx);
  const ignition = isObject(config.ignition) ? config.ignition : {};
  const version = str(ignition.version) || undefined;
  const majorText = version?.split('.')[0];
  const specMajor = majorText && /^\d+$/.test(majorText) ? Number(majorText) : undefined;

  const storage = new Map<string, StorageNode>();
  const s = isObject(config.storage) ? config.storage : {};
  list(s.directories).forEach((r, i) => {
    const node = d.directory(r, i, specMajor);
    storage.set(node.path, node);
  });
  list(s.links).forEach((r, i) => {
    const node = d.link(r, i, specMajor);
    storage.set(node.path, node);
  });
  // Files last: a path that is both (invalid in Ignition) shows as the file.
  list(s.files).forEach((r, i) => {
    const node = d.file(r, i, specMajor);
    storage.set(node.path, node);
  });

  const units = new Map<string, NormalUnit>();
  const sd = isObject(config.systemd) ? config.systemd : {};
  list(sd.units).forEach((r, i) => {
    const unit = d.unit(r, i);
    units.set(unit.name, unit);
  });

  const users = new Map<string, NormalUser>();
  const pw = isObject(config.passwd) ? config.passwd : {};
  list(pw.users).forEach((r, i) => {
    const user = d.user(r, i);
    users.set(user.name, user);
  });

  const ka = isObject(config.kernelArguments) ? config.kernelArguments : {};
  const strings = (v: unknown) => list(v).filter((x): x is string => typeof x === 'string');

  return {
    ...(version ? { version } : {}),
    ...(specMajor !== undefined ? { specMajor } : {}),
    storage,
    units,
    users,
    kernelArguments: { shouldExist: strings(ka.shouldExist), shouldNotExist: strings(ka.shouldNotExist) },
    other: otherSections(config, d.walk),
  };
}
