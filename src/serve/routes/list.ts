/** A list, paged by continue tokens and streamed with backpressure (routes/index.ts). */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  decodeContinue,
  encodeContinue,
  negotiate,
  parseResourceVersion,
  partial,
  type ServeContext,
  type Target,
} from '../http.js';
import { apiVersionOf, typeKey } from '../resources.js';
import { badRequest, expired, notAcceptable } from '../status.js';
import type { KubeObject } from '../store.js';
import { parseIncludeObject, toTable } from '../table.js';
import { matchers, validateOptions, whenReached } from './common.js';

export function list(
  ctx: ServeContext,
  req: IncomingMessage,
  res: ServerResponse,
  t: Target,
  q: URLSearchParams,
): void {
  const want = negotiate(req);
  // handlers/response.go asPartialObjectMetadata: a list is not one object.
  if (want.as === 'PartialObjectMetadata')
    throw notAcceptable(
      `you requested PartialObjectMetadata, but the requested object is a list (${t.type.kind}List)`,
    );
  validateOptions(q, false);
  const store = ctx.opts.store;
  const match = matchers(t, q);
  const rvParam = q.get('resourceVersion');
  const requested = parseResourceVersion(rvParam);
  const limitParam = q.get('limit');
  let limit = 0;
  if (limitParam !== null && limitParam !== '') {
    if (!/^\d+$/.test(limitParam)) throw badRequest('limit must be a non-negative integer');
    limit = Math.min(Number(limitParam), ctx.limits.maxLimit);
  }
  const include = parseIncludeObject(q.get('includeObject'));
  if (!include) throw badRequest('includeObject must be None, Metadata or Object');
  const key = `${typeKey(t.type)} ${t.namespace ?? ''} ${q.get('labelSelector') ?? ''} ${q.get('fieldSelector') ?? ''}`;
  const cont = q.get('continue');
  // API concepts, "Semantics for get and list": resourceVersion unset is the most recent state, "0"
  // any state, N with resourceVersionMatch Exact the state at N, and N alone or with NotOlderThan
  // a state at least as new as N, which is the current one (this server serves no stale caches).
  const exact = q.get('resourceVersionMatch') === 'Exact';
  if (!cont && requested > store.resourceVersion) {
    whenReached(ctx, res, requested, () => list(ctx, req, res, t, q));
    return;
  }
  let rv = store.resourceVersion;
  let start = 0;
  let items: readonly KubeObject[];
  if (cont) {
    const token = decodeContinue(cont);
    // The token says at which resourceVersion to go on; another one beside it is refused, as etcd3
    // store.go GetList refuses it (after decoding the token, with "0" let through as "any").
    if (rvParam !== null && rvParam !== '' && rvParam !== '0')
      throw badRequest('specifying resource version is not allowed when using continue');
    // A continue token reads the list at its resourceVersion, as etcd does, while the change log
    // still holds it.
    const snapshot =
      ctx.snapshots.get(`${token.rv} ${key}`) ?? store.listAt(typeKey(t.type), token.rv)?.filter(match);
    if (!snapshot)
      throw expired(
        'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.',
      );
    items = snapshot;
    rv = token.rv;
    start = token.start;
  } else if (exact) {
    // The state at exactly that resourceVersion, rebuilt from the change log; older than the log's
    // window is what etcd says of a compacted revision (storage/etcd3 interpretListError): 410.
    const at = store.listAt(typeKey(t.type), requested);
    if (!at) throw expired('The resourceVersion for the provided list is too old.');
    items = at.filter(match);
    rv = requested;
  } else {
    items = store.list(typeKey(t.type)).filter(match);
  }
  let page = items;
  let next: string | undefined;
  let remaining: number | undefined;
  if (limit > 0 && start + limit < items.length) {
    page = items.slice(start, start + limit);
    next = encodeContinue({ rv, start: start + limit });
    remaining = items.length - start - limit;
    remember(ctx, `${rv} ${key}`, items);
  } else if (start > 0) {
    page = items.slice(start);
  }
  const meta = {
    resourceVersion: String(rv),
    ...(next ? { continue: next } : {}),
    ...(remaining !== undefined ? { remainingItemCount: remaining } : {}),
  };
  if (want.as === 'Table') {
    const opts = {
      now: ctx.opts.now(),
      include,
      resourceVersion: meta.resourceVersion,
      apiVersion: want.apiVersion,
      ...(next ? { continueToken: next } : {}),
      ...(remaining !== undefined ? { remaining } : {}),
    };
    // The envelope (columns, metadata) once; the rows, 500 at a time, as the client reads them.
    const envelope = toTable(t.type.kind, [], opts);
    streamArray(res, envelope, 'rows', page.length, (from, to) =>
      (toTable(t.type.kind, page.slice(from, to), { ...opts, withColumns: false }).rows as unknown[]).map(
        (row) => JSON.stringify(row),
      ),
    );
    return;
  }
  if (want.as === 'PartialObjectMetadataList') {
    // What client-go's metadata client lists with: every item's metadata, under meta.k8s.io kinds.
    const envelope = {
      kind: 'PartialObjectMetadataList',
      apiVersion: want.apiVersion,
      metadata: meta,
      items: [],
    };
    streamArray(res, envelope, 'items', page.length, (from, to) =>
      page.slice(from, to).map((o) => JSON.stringify(partial(o, want.apiVersion))),
    );
    return;
  }
  const envelope = {
    kind: `${t.type.kind}List`,
    apiVersion: apiVersionOf(t.type),
    metadata: meta,
    items: [],
  };
  streamArray(res, envelope, 'items', page.length, (from, to) =>
    page.slice(from, to).map((o) => JSON.stringify(o)),
  );
}

/**
 * A JSON object whose `key` array is written in pieces with backpressure, so a 30k-event list (or
 * Table) never becomes one giant string. `envelope[key]` must be the last field, an empty array.
 */
function streamArray(
  res: ServerResponse,
  envelope: Record<string, unknown>,
  key: string,
  count: number,
  render: (from: number, to: number) => string[],
): void {
  const head = JSON.stringify(envelope);
  const tail = `"${key}":[]}`;
  if (!head.endsWith(tail)) throw new Error(`streamArray: ${key} is not the envelope's last field`);
  if (count <= 500) {
    // One piece, with its length: what most answers are (a client's page, the nodes of a cluster).
    const text = `${head.slice(0, -2)}${render(0, count).join(',')}]}`;
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
    res.end(text);
    return;
  }
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.write(head.slice(0, -2));
  let i = 0;
  const pump = () => {
    while (i < count) {
      const stop = Math.min(count, i + 500);
      const parts = render(i, stop);
      const chunk = (i > 0 ? ',' : '') + parts.join(',');
      i = stop;
      if (!res.write(chunk)) {
        res.once('drain', pump);
        return;
      }
    }
    res.end(']}');
  };
  pump();
}

function remember(ctx: ServeContext, key: string, items: readonly KubeObject[]): void {
  ctx.snapshots.set(key, items);
  while (ctx.snapshots.size > 32) {
    const first = ctx.snapshots.keys().next().value;
    if (first === undefined) break;
    ctx.snapshots.delete(first);
  }
}
