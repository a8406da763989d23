/**
 * The MachineConfigs of one gather-extra machineconfigs.json for `atlevel diff --from`, read once and
 * without parsing the configs that are not compared. A CI run's file holds hundreds of rendered
 * configs of about 200 KB each, nearly all of it the Ignition `spec.config`; the ordinary reader
 * (readers.ts, json-items.ts) already keeps each large `spec.config` as bytes (model/deferred-json.ts)
 * but scans and copies every byte of it on the way. Here the bytes are indexed first
 * (items-index.ts) and each item is parsed with its deferred members cut out, so an unread config
 * costs one pass of the scanner and nothing else.
 *
 * The result is the ordinary reader's, object for object: each item is the value that reader makes
 * of it (the same members kept as bytes, under the same conditions: LARGE_ITEM_BYTES, PIECE_BYTES),
 * held to the same tree limits, validated by the same collectOne and kept by the same ObjectStore.
 * Whenever that is not sure, it answers undefined and the caller reads the input the ordinary way,
 * which then reports whatever is wrong in its own words: any other input (a folder, a URL, stdin,
 * another file name, a compressed file), a byte the index is unsure of, an item that does not parse
 * or validate, a limit crossed.
 */
import { readFileSync, statSync } from 'node:fs';
import {
  type Budget,
  DeferredJson,
  type HistoryParts,
  KINDS,
  type MachineConfig,
  type Observed,
} from '../model/index.js';
import { DEFAULT_MAX_FILE_BYTES, MAX_PARSED_BYTES } from './bytes.js';
import { collectOne, emptyResult, type FileResult } from './collect.js';
import { compressionByMagic, isArchiveContent, withoutCompressionSuffix } from './decoders/index.js';
import { type IndexedItem, indexItems, type Span } from './items-index.js';
import { LARGE_ITEM_BYTES, PIECE_BYTES } from './json-bytes.js';
import { readerByName } from './layouts/ci-run.js';
import { assignReleases } from './releases.js';
import { ObjectStore } from './store.js';
import { ItemTreeLimits } from './tree-limits.js';
import { looksLikeUrl } from './url/location.js';
import { STDIN } from './words.js';

export interface QuickConfigs {
  readonly machineConfigs: Observed<MachineConfig>[];
  readonly releases: HistoryParts['releases'];
  /** Bytes of the file parsed (items with their deferred members cut out, and the List around them). */
  readonly parsedBytes: number;
  /** Bytes of the file kept as bytes, unparsed (the deferred members). */
  readonly deferredBytes: number;
}

export interface QuickOptions {
  readonly budget: Budget;
  readonly maxFileBytes?: number;
}

/**
 * What loadHistoryParts would give for `[arg]` as its machineConfigs and releases (with no
 * --release-from/--release-to), when `arg` is a local gather-extra machineconfigs.json that reads
 * cleanly; undefined otherwise (see the header).
 */
export function quickMachineConfigs(arg: string, opts: QuickOptions): QuickConfigs | undefined {
  if (arg === '' || arg === STDIN || looksLikeUrl(arg)) return undefined;
  // The file opener's name for it (open/file.ts), and the reader that name selects (load.ts).
  const name = arg.slice(arg.lastIndexOf('/') + 1);
  const spec = readerByName(name);
  if (spec?.reader !== 'gather-extra' || spec.expect !== 'MachineConfig') return undefined;
  let bytes: Buffer;
  try {
    if (!statSync(arg).isFile()) return undefined;
    bytes = readFileSync(arg);
  } catch {
    return undefined;
  }
  // What the file opener would take for an archive, whatever the name says.
  if (isArchiveContent(bytes.subarray(0, 64 * 1024))) return undefined;
  const read = readMachineConfigList(bytes, name, arg, opts);
  if (read === undefined) return undefined;
  const store = new ObjectStore();
  for (const o of read.result.objects) store.put(o.kind, o.object, o.ref);
  // As assemble places them when the inputs hold no payload and no ClusterVersion and no release
  // file is given (load.ts, given-releases.ts placeReleases).
  const releases = assignReleases([], {}, undefined, []);
  return {
    machineConfigs: store.snapshot().machineConfigs,
    releases,
    parsedBytes: read.parsedBytes,
    deferredBytes: read.deferredBytes,
  };
}

/**
 * The FileResult the ordinary reader (readers.ts readInput, streaming) makes of `bytes`, the whole
 * content of a gather-extra machineconfigs.json named `name` and shown as `file`; undefined when
 * that is not sure (see the header), and the caller reads it the ordinary way.
 */
export function readMachineConfigList(
  bytes: Buffer,
  name: string,
  file: string,
  opts: QuickOptions,
  size: number = bytes.length,
): { result: FileResult; parsedBytes: number; deferredBytes: number } | undefined {
  // A compressed file is decompressed as it streams (bytes.ts); its name or its magic says so.
  if (
    withoutCompressionSuffix(name) !== name ||
    compressionByMagic(bytes.subarray(0, 64 * 1024)) !== undefined
  )
    return undefined;
  const maxBytes = Math.min(opts.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES, MAX_PARSED_BYTES);
  if (bytes.length > maxBytes) return undefined;
  const paths = KINDS.MachineConfig.deferred ?? [];
  const index = indexItems(bytes, paths);
  if (index === undefined || index.list.length === 0) return undefined;
  try {
    return build(bytes, index, file, paths, opts.budget, size);
  } catch {
    // Anything the ordinary reader might see differently (a syntax error, an invalid item, a limit).
    return undefined;
  }
}

function build(
  bytes: Buffer,
  index: NonNullable<ReturnType<typeof indexItems>>,
  file: string,
  paths: readonly string[],
  budget: Budget,
  size: number,
): { result: FileResult; parsedBytes: number; deferredBytes: number } {
  // The List around the items, as the streaming reader requires it: an object whose kind, if any,
  // is a List's (readers.ts readItemsStreamed).
  const around = `${bytes.toString('utf8', index.begin, index.items.start)}[]${bytes.toString('utf8', index.items.end)}`;
  const doc: unknown = JSON.parse(around);
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw new Error('not an object');
  const kind = (doc as { kind?: unknown }).kind;
  if (!(kind === undefined || (typeof kind === 'string' && kind.endsWith('List'))))
    throw new Error('not a List');
  let parsedBytes = index.items.start - index.begin + (bytes.length - index.items.end);
  let deferredBytes = 0;

  const result = emptyResult(file, 'gather-extra', size, false);
  const limits = new ItemTreeLimits(file, budget);
  const items: unknown[] = [];
  for (let k = 0; k < index.list.length; k++) {
    const item = index.list[k] as IndexedItem;
    const cuts = deferredSpans(item, paths);
    if (cuts.length === 0) {
      items.push(JSON.parse(bytes.toString('utf8', item.start, item.end)));
      parsedBytes += item.end - item.start;
      continue;
    }
    let text = '';
    let at = item.start;
    for (const [, span] of cuts) {
      text += `${bytes.toString('utf8', at, span.start)}0`;
      at = span.end;
    }
    text += bytes.toString('utf8', at, item.end);
    const value = JSON.parse(text) as Record<string, unknown>;
    for (const [path, span] of cuts) {
      place(value, path, new DeferredJson(bytes.subarray(span.start, span.end), file, `items[${k}].${path}`));
      deferredBytes += span.end - span.start;
    }
    parsedBytes += item.end - item.start - cuts.reduce((sum, [, s]) => sum + s.end - s.start, 0);
    items.push(value);
  }
  // As the streaming reader: every item held to the tree limits, then each collected.
  for (const item of items) limits.check(item);
  items.forEach((item, k) => {
    collectOne(result, item, { file, path: `items[${k}]` }, 'MachineConfig');
  });
  return { result, parsedBytes, deferredBytes };
}

/**
 * The members of `item` the ordinary reader keeps as bytes, in byte order: those on a deferred path
 * in an item larger than LARGE_ITEM_BYTES, larger than PIECE_BYTES themselves, each object on the way
 * to them larger than PIECE_BYTES too (json-items.ts parseLarge parses anything smaller whole), and
 * not inside another one kept.
 */
function deferredSpans(item: IndexedItem, paths: readonly string[]): [string, Span][] {
  if (item.end - item.start <= LARGE_ITEM_BYTES) return [];
  const out: [string, Span][] = [];
  for (const path of paths) {
    const span = item.members.get(path);
    if (span === undefined || span.end - span.start <= PIECE_BYTES) continue;
    const keys = path.split('.');
    let parentsLarge = true;
    for (let k = 1; k < keys.length; k++) {
      const parent = item.parents.get(keys.slice(0, k).join('.'));
      if (parent === undefined || parent.end - parent.start <= PIECE_BYTES) parentsLarge = false;
    }
    if (parentsLarge) out.push([path, span]);
  }
  out.sort((a, b) => a[1].start - b[1].start);
  // A member inside another kept one is part of it.
  return out.filter(([, s], k) => k === 0 || s.start >= (out[k - 1] as [string, Span])[1].end);
}

/** Put `value` at the dotted `path` of `item`, where the parse left a stand-in. */
function place(item: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let at = item;
  for (const key of keys.slice(0, -1)) at = at[key] as Record<string, unknown>;
  at[keys.at(-1) as string] = value;
}
