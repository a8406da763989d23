/**
 * One reader per kind of file: each turns the bytes of one file into a FileResult (objects,
 * intervals, build-log entries awaiting their year, release payloads, alerts). Readers do not know
 * whether the bytes come from a folder or an archive.
 */

import type { Interval, SourceRef } from '../model/index.js';
import {
  Budget,
  DeferredJson,
  InputError,
  Interner,
  KINDS,
  type KnownKind,
  plural,
  printable,
} from '../model/index.js';
import { parseReleasePayload } from '../release/index.js';
import { alertsOf } from './alerts.js';
import { append } from './append.js';
import { BuildLogReader } from './buildlog.js';
import {
  assertText,
  type DecodeOptions,
  type DecodeStats,
  decodedChunks,
  formatBytes,
  MAX_PARSED_BYTES,
  readAllText,
} from './bytes.js';
import {
  collectOne,
  count,
  describe,
  emptyResult,
  type FileResult,
  isObject,
  type Loose,
} from './collect.js';
import { withoutCompressionSuffix } from './decoders/index.js';
import { type Document, JsonTreeScanner, parseDocuments } from './documents.js';
import type { EchoFilter } from './echoes.js';
import {
  looksLikeIntervals,
  parseIntervalItem,
  parseIntervalsDocument,
  plainItem,
} from './intervals-json.js';
import { type DeferredMembers, JsonItemsReader, NotStreamable } from './json-items.js';
import type { ReaderSpec } from './layouts/index.js';
import { ItemTreeLimits } from './tree-limits.js';
import { runStartFromName } from './year.js';

export type { FileResult } from './collect.js';

export interface ReadLimits {
  readonly maxFileBytes: number;
  /** The run's budget (model/budget.ts): decompressed bytes, parsed tree size and depth. */
  readonly budget?: Budget;
}

/** What a reader may use besides the bytes. */
export interface ReadContext {
  /**
   * The same bytes again from the start. When given, the large JSON files are streamed item by item
   * and, should anything be off, read again whole, so every error is the whole-text reader's.
   */
  readonly reopen?: () => AsyncIterable<Buffer>;
  /** Shared across the files of one load, so equal locators and annotations are one object. */
  readonly intern?: Interner;
  /** When set, intervals that echo a build-log line are dropped as they are read. */
  readonly echoes?: EchoFilter;
}

/** Intervals a file gave, counting those dropped as echoes of the build log. */
export function intervalCount(r: FileResult): number {
  return r.intervals.length + (r.echoes ?? 0);
}

/** Keep `interval` unless it echoes a build-log line. */
function keepInterval(result: FileResult, interval: Interval, echoes: EchoFilter | undefined): void {
  if (echoes?.drop(interval)) result.echoes = (result.echoes ?? 0) + 1;
  else result.intervals.push(interval);
}

function keepIntervals(result: FileResult, intervals: Interval[], echoes: EchoFilter | undefined): void {
  if (!echoes) append(result.intervals, intervals);
  else for (const i of intervals) keepInterval(result, i, echoes);
}

/** `List`, `ClusterOperatorList`, or a kind-less `{items: [...]}`. */
function isList(doc: Loose): boolean {
  if (!Array.isArray(doc.items)) return false;
  return doc.kind === undefined || (typeof doc.kind === 'string' && doc.kind.endsWith('List'));
}

/**
 * Read one file. `name` is its base name (for gzip and run-start detection), `size` its size as
 * stored. Throws InputError for a broken file, except for files found incidentally (`oc-get` with
 * `strict: false`), which are reported as skipped.
 */
export async function readInput(
  spec: ReaderSpec,
  file: string,
  name: string,
  size: number,
  source: AsyncIterable<Buffer>,
  limits: ReadLimits,
  context: ReadContext = {},
): Promise<FileResult> {
  const lenient = spec.reader === 'oc-get' && !spec.strict;
  const intern = context.intern ?? new Interner();
  const nameSaysGzip = /\.gz$/i.test(name);
  const fresh = (): FileResult => {
    const result = emptyResult(file, spec.reader, size, lenient);
    const runStart = runStartFromName(name);
    if (runStart !== undefined) result.hints.push({ at: runStart, from: `the run start in ${name}` });
    return result;
  };
  let result = fresh();

  if (spec.reader === 'build-log') {
    if (size > limits.maxFileBytes) {
      throw new InputError(
        file,
        `size exceeds ${formatBytes(limits.maxFileBytes)}`,
        'raise the limit with maxFileBytes',
      );
    }
    await readBuildLog(
      result,
      source,
      {
        file,
        name,
        maxBytes: limits.maxFileBytes,
        nameSaysGzip,
        streamed: true,
        ...budgetOf(limits),
        ...notesTo(() => result),
      },
      intern,
    );
    return result;
  }

  const maxBytes = Math.min(limits.maxFileBytes, MAX_PARSED_BYTES);
  const plainName = withoutCompressionSuffix(name);
  const jsonByName = /\.json$/i.test(plainName);
  const echoes = context.echoes;
  echoes?.begin();
  let input = source;
  if (context.reopen && jsonByName && size <= maxBytes && FORMATS[spec.reader].streamed !== undefined) {
    const opts = { file, name, maxBytes, nameSaysGzip, ...budgetOf(limits), ...notesTo(() => result) };
    const streamed = await readItemsStreamed(result, spec, source, opts, intern, echoes);
    if (streamed === true) return result;
    echoes?.rollback();
    result = fresh();
    if (typeof streamed === 'string') {
      // Large and not JSON at all: parsing its whole text only to find the error again would hold
      // it, and the tree JSON.parse builds up to the error, at once (docs/limits.md, "Memory").
      const err = new InputError(file, `invalid JSON: ${streamed}`);
      if (lenient) {
        result.skippedBecause = err.problem;
        return result;
      }
      throw err;
    }
    // Read it again whole: the whole-text reader reports whatever was wrong.
    input = context.reopen();
  }
  try {
    if (size > maxBytes) {
      throw new InputError(
        file,
        `size exceeds ${formatBytes(maxBytes)}, the most atlevel parses as one document`,
      );
    }
    const stats: DecodeStats = { gzip: false, bytesIn: 0, bytesOut: 0 };
    // A `.json` is held to the tree budget as it is decoded, before its text is whole (docs/limits.md).
    const scanner = jsonByName ? new JsonTreeScanner(file, limits.budget ?? new Budget()) : undefined;
    const text = await readAllText(
      input,
      {
        file,
        name,
        maxBytes,
        nameSaysGzip,
        ...budgetOf(limits),
        ...notesTo(() => result),
        ...(scanner ? { scan: (chunk: Buffer) => scanner.write(chunk) } : {}),
      },
      stats,
    );
    const release = scanner?.scanned(text);
    let docs: Document[];
    try {
      docs = parseDocuments(text, file, jsonByName, limits.budget);
    } finally {
      release?.();
    }
    readWhole(spec, { result, docs, text, file, intern, echoes });
  } catch (err) {
    if (lenient && err instanceof InputError) {
      result.skippedBecause = err.problem;
      return result;
    }
    throw err;
  }
  return result;
}

function budgetOf(limits: ReadLimits): { budget?: Budget } {
  return limits.budget ? { budget: limits.budget } : {};
}

/** Decode notes go to the file's notes, once each. */
function notesTo(result: () => FileResult): { onNote: (text: string) => void } {
  return {
    onNote: (text) => {
      const line = `${result().file}: ${text}`;
      if (!result().notes.includes(line)) result().notes.push(line);
    },
  };
}

/** What a format reading a file whole is given. */
interface WholeInput {
  readonly result: FileResult;
  readonly docs: Document[];
  readonly text: string;
  readonly file: string;
  readonly intern: Interner;
  readonly echoes: EchoFilter | undefined;
}

type SpecOf<K extends ReaderSpec['reader']> = Extract<ReaderSpec, { reader: K }>;

/** One format per reader a layout names: how a file is read whole, and item by item when it can be. */
interface Format<K extends ReaderSpec['reader']> {
  readonly read: (spec: SpecOf<K>, input: WholeInput) => void;
  /** For files that are one big `items` array: what each item becomes, as the file streams by. */
  readonly streamed?: (
    spec: SpecOf<K>,
    result: FileResult,
    file: string,
    intern: Interner,
    echoes: EchoFilter | undefined,
  ) => (item: unknown, index: number) => void;
}

/** FORMATS: the readers layouts name (layouts/types.ts ReaderSpec), one entry each. */
const FORMATS: { readonly [K in ReaderSpec['reader']]: Format<K> } = {
  'gather-extra': {
    read: (spec, { result, docs, file }) => readExpected(result, docs, file, spec.expect),
    streamed: (spec, result, file) => (item, index) =>
      collectOne(result, item, { file, path: `items[${index}]` }, spec.expect),
  },
  // Build logs are read line by line as they stream (readBuildLog, before any whole read); never whole.
  'build-log': { read: () => undefined },
  'oc-example': { read: (spec, { result, docs, file }) => readExpected(result, docs, file, spec.expect) },
  'must-gather': {
    read: (_spec, { result, docs, file }) => {
      for (const doc of docs) collectObjects(result, doc, file, undefined);
    },
  },
  'e2e-intervals': {
    read: (spec, { result, docs, file, intern, echoes }) => {
      if (docs.length !== 1) throw new InputError(file, 'not an intervals file: expected one JSON document');
      keepIntervals(result, parseIntervalsDocument(docs[0]?.value, file, spec.source, intern), echoes);
    },
    streamed: (spec, result, file, intern, echoes) => (item, index) => {
      // A CI run's interval file repeats its build log: most items are echoes, checked (and
      // dropped) before an interval is made of them.
      const plain = echoes && plainItem(item);
      const echo = plain ? echoes.dropItem(plain) : undefined;
      if (echo === true) result.echoes = (result.echoes ?? 0) + 1;
      else {
        const interval = parseIntervalItem(item, index, file, spec.source, intern);
        // dropItem already knows it echoes nothing: drop would only search again.
        keepInterval(result, interval, echo === false ? undefined : echoes);
      }
    },
  },
  alerts: {
    read: (_spec, { result, docs, file }) => {
      const alerts = alertsOf(docs[0]?.value);
      if (docs.length !== 1 || alerts === undefined) {
        throw new InputError(file, `not an alerts file: found ${describe(docs[0]?.value)}`);
      }
      append(result.alerts, alerts);
    },
  },
  'mco-deployment': {
    read: (_spec, { result, docs, file }) => {
      result.mcoImage = { image: mcoDeploymentImage(docs, file), source: file };
    },
  },
  'oc-get': {
    read: (_spec, { result, docs, text, file, intern, echoes }) =>
      readByContent(result, docs, text, file, intern, echoes),
  },
};

function readWhole(spec: ReaderSpec, input: WholeInput): void {
  (FORMATS[spec.reader] as Format<ReaderSpec['reader']>).read(spec as never, input);
}

function streamedReader(
  spec: ReaderSpec,
  result: FileResult,
  file: string,
  intern: Interner,
  echoes: EchoFilter | undefined,
): ((item: unknown, index: number) => void) | undefined {
  const format = FORMATS[spec.reader] as Format<ReaderSpec['reader']>;
  return format.streamed?.(spec as never, result, file, intern, echoes);
}

/** The members a gather-extra List of `spec.expect` keeps as bytes until read (KINDS `deferred`). */
function deferredMembers(spec: ReaderSpec, file: string): DeferredMembers | undefined {
  const paths = spec.reader === 'gather-extra' ? KINDS[spec.expect].deferred : undefined;
  if (paths === undefined) return undefined;
  return {
    paths: new Set(paths),
    make: (bytes, index, path) => new DeferredJson(bytes, file, `items[${index}].${path}`),
  };
}

/**
 * A file that failed to stream as not JSON at all is read again whole (for the whole-text reader's
 * exact error) only up to this size; past it the streamed reader's own error is given.
 */
const REREAD_WHOLE_UP_TO = 32 * 1024 * 1024;

/**
 * A gather-extra List or an interval file, one batch of items at a time. False when the file is
 * not a plain List / items object or anything in it is wrong; `result` then holds partial work. A
 * string when it is large and not JSON at all: what is wrong with it.
 */
async function readItemsStreamed(
  result: FileResult,
  spec: ReaderSpec,
  source: AsyncIterable<Buffer>,
  opts: DecodeOptions,
  intern: Interner,
  echoes: EchoFilter | undefined,
): Promise<boolean | string> {
  const file = opts.file;
  const onItem = streamedReader(spec, result, file, intern, echoes);
  if (!onItem) return false;
  const limits = new ItemTreeLimits(file, opts.budget ?? new Budget());
  let decoded = 0;
  const reader = new JsonItemsReader(
    (batch, first) => {
      for (let k = 0; k < batch.length; k++) limits.check(batch[k]);
      for (let k = 0; k < batch.length; k++) onItem(batch[k], first + k);
    },
    {},
    deferredMembers(spec, file),
  );
  try {
    for await (const chunk of decodedChunks(source, opts)) {
      decoded += chunk.length;
      reader.write(chunk);
    }
    const doc = reader.end();
    if (spec.reader === 'gather-extra') {
      // readExpected: a List (kind absent or `…List`); an object of the expected kind is read whole.
      const kind = doc.members.get('kind');
      if (!(kind === undefined || (typeof kind === 'string' && kind.endsWith('List')))) return false;
    }
    return true;
  } catch (err) {
    if (err instanceof NotStreamable && err.invalid && decoded >= REREAD_WHOLE_UP_TO) {
      return `${err.message} (at byte ${decoded} or before)`;
    }
    if (err instanceof NotStreamable || err instanceof InputError) return false;
    throw err;
  }
}

async function readBuildLog(
  result: FileResult,
  source: AsyncIterable<Buffer>,
  opts: DecodeOptions,
  intern: Interner,
): Promise<void> {
  const reader = new BuildLogReader(opts.file, intern);
  let first = true;
  for await (const chunk of decodedChunks(source, opts)) {
    if (first) {
      assertText(chunk, opts.file);
      first = false;
    }
    reader.write(chunk);
  }
  reader.end();
  append(result.pending, reader.entries);
  result.lines = reader.lines;
  result.duplicateLines = reader.duplicates;
  if (reader.dated) {
    result.ownYear = {
      at: reader.dated.at,
      from: `the time stamp on line ${reader.dated.line} of ${opts.name}`,
    };
  }
}

/** A file whose name says what it holds: a List of `expect` (or one such object). */
function readExpected(result: FileResult, docs: Document[], file: string, expect: KnownKind): void {
  if (docs.length === 0) throw new InputError(file, `empty file, expected a List of ${expect}`);
  for (const doc of docs) {
    if (!isObject(doc.value)) {
      throw new InputError(file, `expected a List of ${expect}, found ${describe(doc.value)}`);
    }
    if (!isList(doc.value) && doc.value.kind !== expect) {
      throw new InputError(
        file,
        `found ${describe(doc.value)} where ${expect} (or a List of them) was expected`,
      );
    }
    collectObjects(result, doc, file, expect);
  }
}

/** Objects of a document: a List's items or the document itself. */
function collectObjects(
  result: FileResult,
  doc: Document,
  file: string,
  expect: KnownKind | undefined,
): void {
  const value = doc.value;
  const base: SourceRef = doc.line !== undefined ? { file, line: doc.line } : { file };
  if (!isObject(value)) {
    count(result.skippedKinds, '(not an object)');
    return;
  }
  if (isList(value)) {
    (value.items as unknown[]).forEach((item, index) => {
      collectOne(result, item, { ...base, path: `items[${index}]` }, expect);
    });
    return;
  }
  collectOne(result, value, base, expect);
}

function isReleaseDocument(doc: unknown): boolean {
  if (!isObject(doc)) return false;
  if (doc.kind === 'ImageStream') return true;
  return doc.kind === undefined && isObject(doc.references) && doc.references.kind === 'ImageStream';
}

/** A file read by what is in it: intervals, a release payload, alerts, or Kubernetes objects. */
function readByContent(
  result: FileResult,
  docs: Document[],
  text: string,
  file: string,
  intern: Interner,
  echoes: EchoFilter | undefined,
): void {
  for (const doc of docs) {
    const value = doc.value;
    if (looksLikeIntervals(value)) {
      keepIntervals(result, parseIntervalsDocument(value, file, 'intervals-json', intern), echoes);
      continue;
    }
    if (isReleaseDocument(value)) {
      result.releases.push(parseReleasePayload(docs.length === 1 ? text : JSON.stringify(value), file));
      continue;
    }
    const alerts = alertsOf(value);
    if (alerts !== undefined) {
      append(result.alerts, alerts);
      continue;
    }
    collectObjects(result, doc, file, undefined);
  }
}

/**
 * The image of the `machine-config-operator` container of the machine-config-operator Deployment, the
 * one oc reads (pkg/cli/admin/upgrade/status, status.go). Anything else in the file is bad input.
 */
function mcoDeploymentImage(docs: readonly { readonly value: unknown }[], file: string): string {
  const doc = docs.length === 1 ? docs[0]?.value : undefined;
  if (!isObject(doc) || doc.kind !== 'Deployment') {
    throw new InputError(
      file,
      `not a Deployment: found ${docs.length === 1 ? describe(doc) : `${docs.length} documents`}`,
    );
  }
  const meta = isObject(doc.metadata) ? doc.metadata : {};
  if (meta.name !== 'machine-config-operator') {
    throw new InputError(
      file,
      `not the machine-config-operator Deployment: it is named ${printable(String(meta.name), 100)}`,
    );
  }
  const spec = isObject(doc.spec) ? doc.spec : {};
  const template = isObject(spec.template) ? spec.template : {};
  const podSpec = isObject(template.spec) ? template.spec : {};
  const containers = Array.isArray(podSpec.containers) ? podSpec.containers : [];
  const mco = containers.find((c): c is Loose => isObject(c) && c.name === 'machine-config-operator');
  if (!mco || typeof mco.image !== 'string' || mco.image === '') {
    throw new InputError(file, 'the Deployment has no machine-config-operator container with an image');
  }
  return mco.image;
}

/** A release in the inputs list: `release 4.10.0-…`, or `release without a version`, never "release unknown". */
export function releaseWords(version: string | undefined): string {
  return version !== undefined ? `release ${printable(version, 100)}` : 'release without a version';
}

/** What a file gave, in a few words, for the inputs list. */
export function contribution(r: FileResult): string {
  if (r.skippedBecause !== undefined) return `skipped: ${r.skippedBecause}`;
  const parts: string[] = [];
  if (r.objects.length > 0) parts.push(plural(r.objects.length, 'object'));
  if (intervalCount(r) > 0) parts.push(plural(intervalCount(r), 'interval'));
  const monitorLines = r.pending.filter((p) => p.interval !== undefined).length;
  const testLines = r.pending.length - monitorLines;
  if (monitorLines > 0) parts.push(plural(monitorLines, 'interval'));
  if (testLines > 0) parts.push(plural(testLines, 'test log line'));
  for (const release of r.releases)
    parts.push(`${releaseWords(release.version)} (${plural(release.components.length, 'component')})`);
  if (r.alerts.length > 0) parts.push(plural(r.alerts.length, 'alert'));
  if (r.mcoImage) parts.push('the machine-config-operator image');
  const skipped = [...r.skippedKinds.values()].reduce((a, b) => a + b, 0);
  if (skipped > 0) parts.push(`${skipped} of other kinds skipped`);
  if (r.lines !== undefined && parts.length === 0)
    parts.push(`nothing atlevel reads in ${plural(r.lines, 'line')}`);
  return parts.length > 0 ? parts.join(', ') : 'nothing';
}
