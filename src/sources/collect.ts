/**
 * What one file gave (FileResult), and the collecting of one Kubernetes object into it, validated
 * against its kind's schema. A module of its own, apart from the readers (readers.ts), so that
 * `atlevel diff`'s reader of one machineconfigs.json (quick-configs.ts) collects its objects as the
 * readers do without loading them all, js-yaml and the build-log parser with them
 * (docs/performance.md, "diff's start-up").
 */
import type { Interval, KnownKind, McoImage, ReleasePayload, SourceRef } from '../model/index.js';
import { InputError, isKnownKind, printable } from '../model/index.js';
import type { PendingEntry } from './buildlog.js';
import { validateObject } from './validate.js';
import type { Resolved, YearHint } from './year.js';

interface ObjectRecord {
  readonly kind: KnownKind;
  readonly object: unknown;
  readonly ref: SourceRef;
}

export interface FileResult {
  readonly file: string;
  readonly reader: string;
  readonly bytes: number;
  readonly objects: ObjectRecord[];
  readonly intervals: Interval[];
  readonly pending: PendingEntry[];
  readonly releases: ReleasePayload[];
  readonly alerts: unknown[];
  /** The machine-config-operator Deployment's image (reader `mco-deployment`). */
  mcoImage?: McoImage;
  /** Objects of kinds atlevel does not read, by kind. */
  readonly skippedKinds: Map<string, number>;
  readonly hints: YearHint[];
  readonly notes: string[];
  /** Found incidentally (a YAML/JSON file beside CI or must-gather files): may be skipped, may hold nothing. */
  readonly incidental: boolean;
  /** Set when an incidental file could not be read and was skipped instead. */
  skippedBecause?: string;
  /** The hosted cluster whose guest objects the file holds (a hypershift dump's `hostedcluster-NAME/`). */
  guest?: string;
  /** Intervals dropped as they were read, as echoes of build-log lines (see echoes.ts). */
  echoes?: number;
  /** build-log only. */
  lines?: number;
  /** build-log only: the year of its lines, from its own dated lines (buildlog.ts datedLine). */
  ownYear?: YearHint;
  /**
   * build-log only: its lines as dated when the log was read ahead of the other files (load.ts
   * readLogsFirst), and the year hint they were dated by. assemble takes them as they are when its
   * own hint is the same, instead of dating every line a second time.
   */
  settled?: { readonly hint: YearHint; readonly resolved: Resolved };
  duplicateLines?: number;
}

export function emptyResult(file: string, reader: string, bytes: number, incidental: boolean): FileResult {
  return {
    file,
    reader,
    bytes,
    incidental,
    objects: [],
    intervals: [],
    pending: [],
    releases: [],
    alerts: [],
    skippedKinds: new Map(),
    hints: [],
    notes: [],
  };
}

export type Loose = Record<string, unknown>;

export function isObject(v: unknown): v is Loose {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (isObject(v))
    return typeof v.kind === 'string' ? `kind ${printable(v.kind, 60)}` : 'an object without kind';
  return `a ${typeof v}`;
}

/**
 * Validate one object of a document and keep it in `result`; an object of a kind atlevel does not
 * read is only counted. `item` is a value as JSON.parse or js-yaml built it (a document, a List's
 * item): validateObject is told so.
 */
export function collectOne(
  result: FileResult,
  item: unknown,
  ref: SourceRef,
  expect: KnownKind | undefined,
): void {
  const where = ref.path ?? (ref.line !== undefined ? `document at line ${ref.line}` : '');
  if (!isObject(item)) {
    throw new InputError(ref.file, `${where ? `${where}: ` : ''}expected an object, found ${describe(item)}`);
  }
  let raw: Loose = item;
  let kind = item.kind;
  if (expect !== undefined) {
    if (kind === undefined) {
      raw = { ...item, kind: expect };
      kind = expect;
    } else if (kind !== expect) {
      throw new InputError(
        ref.file,
        `${where ? `${where}: ` : ''}found kind ${printable(String(kind), 60)} where ${expect} was expected`,
      );
    }
  }
  if (!isKnownKind(kind)) {
    count(result.skippedKinds, typeof kind === 'string' ? printable(kind, 60) : '(no kind)');
    return;
  }
  const object = validateObject(kind, raw, ref.file, where, true);
  result.objects.push({ kind, object, ref });
}

export function count(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}
