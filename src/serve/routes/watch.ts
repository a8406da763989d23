/** A watch, written from the change log as fast as its client reads (routes/index.ts). */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { negotiate, parseResourceVersion, partial, type ServeContext, type Target } from '../http.js';
import { REPLAYED_AT } from '../moment.js';
import { apiVersionOf, typeKey } from '../resources.js';
import { badRequest, expired } from '../status.js';
import type { Change, KubeObject } from '../store.js';
import { parseIncludeObject, toTable } from '../table.js';
import { matchers, validateOptions } from './common.js';

export function watch(
  ctx: ServeContext,
  req: IncomingMessage,
  res: ServerResponse,
  t: Target,
  q: URLSearchParams,
): void {
  const want = negotiate(req);
  validateOptions(q, true);
  const store = ctx.opts.store;
  const match = matchers(t, q);
  const key = typeKey(t.type);
  const table = want.as === 'Table';
  const include = parseIncludeObject(q.get('includeObject')) ?? 'Metadata';
  const rvParam = q.get('resourceVersion');
  parseResourceVersion(rvParam); // refused as a list refuses it; the cursor is set below
  const timeoutParam = q.get('timeoutSeconds');
  let seconds = ctx.limits.maxWatchSeconds;
  if (timeoutParam !== null && timeoutParam !== '') {
    if (!/^\d+$/.test(timeoutParam)) throw badRequest('timeoutSeconds must be a non-negative integer');
    seconds = Math.min(Number(timeoutParam), seconds);
  }
  const bookmarks = q.get('allowWatchBookmarks') === 'true' && !table;
  req.socket.setTimeout(0);
  let cursor: number;
  let initial: readonly KubeObject[] = [];
  if (rvParam === null || rvParam === '' || rvParam === '0') {
    initial = store.list(key).filter(match);
    cursor = store.resourceVersion;
  } else {
    // The changes after that resourceVersion, even one the server has not reached yet: the apiserver
    // opens such a watch at once and sends what comes after it ("clients can wait for events without
    // unnecessary blocking", storage/cacher/cacher.go waitUntilWatchCacheFreshAndForceAllEvents); only
    // a list waits and then answers "Too large resource version".
    cursor = Number(rvParam);
  }
  res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache' });
  res.flushHeaders();
  ctx.watches.add(res);
  let first = true;
  const send = (type: string, object: unknown, at?: number) => {
    let body = object;
    if (table && type !== 'ERROR' && type !== 'BOOKMARK') {
      body = toTable(t.type.kind, [object as KubeObject], {
        now: ctx.opts.now(),
        include,
        resourceVersion: String((object as KubeObject).metadata.resourceVersion ?? ''),
        withColumns: first,
        apiVersion: want.apiVersion,
      });
      first = false;
    } else if (want.as === 'PartialObjectMetadata' && type !== 'ERROR') {
      // Every event's object but a Status, bookmarks included (handlers/response.go doTransformObject).
      // A watch asked for PartialObjectMetadataList gets the objects as they are: the API server's
      // watch encoder sends the object when its transformation fails (watchEmbeddedEncoder.doEncode).
      body = partial(object as KubeObject, want.apiVersion);
    }
    const event =
      at === undefined
        ? { type, object: body }
        : { type, object: body, [REPLAYED_AT]: new Date(at).toISOString() };
    res.write(`${JSON.stringify(event)}\n`);
    // One object larger than the cap: nothing a client could read in reasonable time.
    if (res.writableLength > ctx.limits.maxWatchBufferBytes) res.destroy();
  };
  const deliver = (c: Change) => {
    if (c.typeKey !== key) return;
    const now = match(c.object);
    const before = c.previous !== undefined && match(c.previous);
    if (c.type === 'MODIFIED') {
      if (now && before) send('MODIFIED', c.object, c.at);
      else if (now) send('ADDED', c.object, c.at);
      else if (before) send('DELETED', c.object, c.at);
    } else if (now || before) send(c.type, c.object, c.at);
  };
  /**
   * What is sent comes from the change log, from `cursor` on, and only while the client reads: a
   * slow client costs the server no buffer (the log holds the changes anyway). A client that stops
   * reading for longer than a request may take is cut, and resumes from the last resourceVersion it
   * saw; one that fell behind the log's window gets 410 Expired, as from a real server.
   */
  let waiting = false;
  let stall: NodeJS.Timeout | undefined;
  const awaitDrain = () => {
    waiting = true;
    stall = setTimeout(() => res.destroy(), ctx.limits.requestTimeoutMs);
    res.once('drain', () => {
      clearTimeout(stall);
      waiting = false;
      pump();
    });
  };
  let sentInitial = 0;
  const pump = () => {
    if (waiting || res.destroyed || res.writableEnded) return;
    while (sentInitial < initial.length) {
      send('ADDED', initial[sentInitial++]);
      if (res.destroyed) return;
      if (res.writableNeedDrain) return awaitDrain();
    }
    if (cursor >= store.resourceVersion) return;
    const backlog = store.changesSince(cursor);
    if (!backlog) {
      send('ERROR', expired(`too old resource version: ${cursor} (${store.oldestResumable})`).body());
      res.end();
      return;
    }
    for (const c of backlog) {
      cursor = c.rv;
      deliver(c);
      if (res.destroyed) return;
      if (res.writableNeedDrain) return awaitDrain();
    }
  };
  const unsubscribe = store.subscribe(() => pump());
  let bookmarkTimer: NodeJS.Timeout | undefined;
  const timeout = setTimeout(() => res.end(), seconds * 1000);
  const cleanup = () => {
    unsubscribe();
    clearTimeout(timeout);
    clearTimeout(stall);
    if (bookmarkTimer) clearInterval(bookmarkTimer);
    ctx.watches.delete(res);
  };
  res.on('close', cleanup);
  pump();
  if (bookmarks) {
    bookmarkTimer = setInterval(() => {
      // A bookmark says "you have seen everything up to here": only once the client has, and never
      // for a resourceVersion before the one the watch started from.
      if (waiting || cursor !== store.resourceVersion) return;
      send('BOOKMARK', {
        kind: t.type.kind,
        apiVersion: apiVersionOf(t.type),
        metadata: { resourceVersion: String(cursor) },
      });
    }, ctx.limits.bookmarkIntervalMs);
  }
}
