/**
 * Everything but resources: the version, the health checks, atlevel's own read-only JSON
 * (`/atlevel/...`, replay progress), and discovery (`/api`, `/apis`, a group, a group version's
 * resource list). Discovery lists every kind atlevel knows, whether or not the inputs hold any
 * (discovery.ts). Any other path is 404.
 */
import { apiGroup, apiGroupList, apiResourceList, apiVersions } from '../discovery.js';
import { type ServeContext, sendJson } from '../http.js';
import { notFound } from '../status.js';
import type { ServeRequest } from './request.js';

export function discovery(ctx: ServeContext, r: ServeRequest): void {
  const { res, segs } = r;
  const path = segs.join('/');
  if (path === 'healthz' || path === 'readyz' || path === 'livez') {
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    res.end('ok');
    return;
  }
  const body = document(ctx, r);
  if (body === undefined) throw notFound('the server could not find the requested resource');
  sendJson(res, 200, body);
}

/** The JSON a non-resource path answers with, or undefined for a path that has none. */
function document(ctx: ServeContext, r: ServeRequest): unknown {
  const { segs } = r;
  const path = segs.join('/');
  const types = ctx.opts.store.types();
  if (path === 'version') return ctx.opts.version;
  if (segs[0] === 'atlevel' && ctx.opts.extra) return ctx.opts.extra(segs.slice(1).join('/'));
  if (path === 'api') return apiVersions();
  if (path === 'apis') return apiGroupList(types);
  if (segs[0] === 'apis' && segs[1] !== undefined && segs.length === 2) return apiGroup(types, segs[1]);
  const where = r.groupVersion;
  if (where) return apiResourceList(types, where.group, where.version, ctx.opts.logs.size > 0);
  return undefined;
}
