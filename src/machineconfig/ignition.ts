/**
 * Ignition spec 2.x and 3.x configs (a MachineConfig's `spec.config`) normalised into one model that
 * the diff compares: files/directories/links by path with decoded contents, units by name with their
 * drop-ins, users by name, Ignition kernel arguments, and whatever else the config holds, canonicalised.
 * Spec differences (2.x `filesystem`, `append: true`, `enable`, overwrite defaults) are resolved here
 * so that a 2.x and a 3.x config saying the same thing compare equal.
 */
import { InputError } from '../model/errors.js';
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

export interface NormalDirectory {
  readonly kind: 'directory';
  readonly path: string;
  readonly mode?: number;
  readonly user?: string;
  readonly group?: string;
  readonly overwrite: boolean;
}

export interface NormalLink {
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

/** JSON with sorted keys and empty values dropped, so `{}`/`[]`/`null`/absent compare equal. */
export function canonicalJson(value: unknown): string | undefined {
  const pruned = prune(value);
  return pruned === undefined ? undefined : JSON.stringify(pruned);
}

function prune(value: unknown): unknown {
  if (value === null || value === undefined) return undefined;
  if (Array.isArray(value)) {
    const items = value.map(prune).filter((v) => v !== undefined);
    return items.length === 0 ? undefined : items;
  }
  if (isObject(value)) {
    const out: Json = {};
    for (const key of Object.keys(value).sort()) {
      const v = prune(value[key]);
      if (v !== undefined) out[key] = v;
    }
    return Object.keys(out).length === 0 ? undefined : out;
  }
  return value;
}

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
  constructor(private readonly ctx: DecodeContext) {}

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
      return { bytes: decompress(decoded.bytes, compression, this.ctx.maxFileBytes), ...extra };
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
      rest: canonicalJson(rest) ?? '',
    };
  }
}

/** Spec 3 defaults `overwrite` to false; spec 2.2+ defaulted it to true for files. */
function overwriteOf(value: unknown, specMajor: number | undefined): boolean {
  if (typeof value === 'boolean') return value;
  return specMajor === 2;
}

const INTERPRETED: Readonly<Record<string, readonly string[]>> = {
  ignition: ['version'],
  storage: ['files', 'directories', 'links'],
  systemd: ['units'],
  passwd: ['users'],
  kernelArguments: ['shouldExist', 'shouldNotExist'],
};

function otherSections(config: Json): Map<string, string> {
  const other = new Map<string, string>();
  for (const [section, value] of Object.entries(config)) {
    const known = INTERPRETED[section];
    if (known && isObject(value)) {
      for (const [key, inner] of Object.entries(value)) {
        if (known.includes(key)) continue;
        const json = canonicalJson(inner);
        if (json !== undefined) other.set(`${section}.${key}`, json);
      }
    } else if (!known) {
      const json = canonicalJson(value);
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
    other: otherSections(config),
  };
}
