/** GET of one object by path (routes/index.ts). */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  negotiate,
  parseResourceVersion,
  partial,
  type ServeContext,
  sendJson,
  type Target,
} from '../http.js';
import { typeKey } from '../resources.js';
import { notAcceptable, notFound } from '../status.js';
import { parseIncludeObject, toTable } from '../table.js';
import { whenReached } from './common.js';

/**
 * One object, at a resourceVersion as the API server's watch cache serves a get (storage/cacher/
 * cacher.go Get, watch_cache.go WaitUntilFreshAndGet): unset, "0" or any N the server has reached is
 * the current object, which is never older than N; an N not reached yet waits as a list does
 * (#whenReached) and is then the object, or 504 Too large resource version.
 */
export function get(
  ctx: ServeContext,
  req: IncomingMessage,
  res: ServerResponse,
  t: Target,
  q: URLSearchParams,
): void {
  const want = negotiate(req);
  const requested = parseResourceVersion(q.get('resourceVersion'));
  const store = ctx.opts.store;
  if (requested > store.resourceVersion) {
    whenReached(ctx, res, requested, () => get(ctx, req, res, t, q));
    return;
  }
  const o = store.get(typeKey(t.type), t.namespace, t.name as string);
  if (!o) {
    throw notFound(`${t.type.plural}${t.type.group ? `.${t.type.group}` : ''} "${t.name}" not found`, {
      name: t.name as string,
      ...(t.type.group ? { group: t.type.group } : {}),
      kind: t.type.plural,
    });
  }
  if (want.as === 'Table') {
    const include = parseIncludeObject(q.get('includeObject'));
    sendJson(
      res,
      200,
      toTable(t.type.kind, [o], {
        now: ctx.opts.now(),
        include: include ?? 'Metadata',
        resourceVersion: String(o.metadata.resourceVersion ?? ''),
        apiVersion: want.apiVersion,
      }),
    );
    return;
  }
  // handlers/response.go asPartialObjectMetadataList: one object is not a list.
  if (want.as === 'PartialObjectMetadataList')
    throw notAcceptable(
      `you requested PartialObjectMetadataList, but the requested object is not a list (${t.type.kind})`,
    );
  sendJson(res, 200, want.as === 'PartialObjectMetadata' ? partial(o, want.apiVersion) : o);
}
