/**
 * serve's route table: each route names the requests it takes and the one handler module that
 * answers them (discovery, get, list, watch, logs, reviews). dispatch parses the path once (only the
 * shapes of Kubernetes API paths; every name is looked up in memory) and runs the first route that
 * matches; a path no route takes is 404, a method none takes 405.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type ServeContext, segments } from '../http.js';
import { REVIEW_PATHS, type ReviewKind } from '../reviews.js';
import { ApiError, methodNotAllowed, methodNotSupported, notFound } from '../status.js';
import { discovery } from './discovery.js';
import { get } from './get.js';
import { list } from './list.js';
import { log } from './log.js';
import type { Route, ServeRequest } from './request.js';
import { review } from './review.js';
import { target } from './target.js';
import { watch } from './watch.js';

const isWatch = (r: ServeRequest): boolean => {
  const w = r.params.get('watch');
  return w === 'true' || w === '1';
};

const ROUTES: readonly Route[] = [
  {
    name: 'reviews',
    method: 'POST',
    matches: (r) => REVIEW_PATHS.has(r.rawPath),
    handle: (ctx, r) => void review(ctx, r.req, r.res, REVIEW_PATHS.get(r.rawPath) as ReviewKind),
  },
  { name: 'discovery', method: 'GET', matches: (r) => r.target === undefined, handle: discovery },
  {
    name: 'logs',
    method: 'GET',
    matches: (r) => r.target?.subresource === 'log',
    handle: (ctx, r) => void log(ctx, r.res, r.target as NonNullable<ServeRequest['target']>, r.params),
  },
  {
    name: 'watch',
    method: 'GET',
    matches: (r) => r.target !== undefined && isWatch(r),
    handle: (ctx, r) => watch(ctx, r.req, r.res, r.target as NonNullable<ServeRequest['target']>, r.params),
  },
  {
    name: 'get',
    method: 'GET',
    matches: (r) => r.target?.name !== undefined,
    handle: (ctx, r) => get(ctx, r.req, r.res, r.target as NonNullable<ServeRequest['target']>, r.params),
  },
  {
    name: 'list',
    method: 'GET',
    matches: (r) => r.target !== undefined,
    handle: (ctx, r) => list(ctx, r.req, r.res, r.target as NonNullable<ServeRequest['target']>, r.params),
  },
];

/** The group, version and the rest of a resource path (`/api/v1/...`, `/apis/G/V/...`). */
function resourcePath(
  segs: readonly string[],
): { group: string; version: string; rest: string[] } | undefined {
  if (segs[0] === 'api' && segs[1] === 'v1') return { group: '', version: 'v1', rest: segs.slice(2) };
  if (segs[0] === 'apis' && segs[1] !== undefined && segs.length > 2)
    return { group: segs[1], version: segs[2] ?? '', rest: segs.slice(3) };
  return undefined;
}

function parse(ctx: ServeContext, req: IncomingMessage, res: ServerResponse): ServeRequest {
  const rawUrl = req.url ?? '/';
  if (Buffer.byteLength(rawUrl) > ctx.limits.maxUrlBytes) {
    throw new ApiError(414, 'RequestURITooLong', 'request URI too long');
  }
  const q = rawUrl.indexOf('?');
  const rawPath = q === -1 ? rawUrl : rawUrl.slice(0, q);
  if (req.method !== 'GET') return { req, res, rawPath, params: new URLSearchParams(), segs: [] };
  // Segments come from the raw path: URL parsing would resolve `..` before anyone could refuse it.
  const segs = segments(rawPath);
  const url = new URL(rawUrl.startsWith('/') ? rawUrl : '/', 'http://localhost');
  if (!segs) throw notFound(`the server could not find the requested resource`);
  const base = { req, res, rawPath, params: url.searchParams };
  const where = segs[0] === 'atlevel' && ctx.opts.extra ? undefined : resourcePath(segs);
  if (!where) return { ...base, segs };
  const { group, version, rest } = where;
  if (rest.length === 0) return { ...base, segs, groupVersion: { group, version } };
  // A review can only be created: the API server has no route for a get, list or watch of one.
  if (REVIEW_PATHS.has(`/${segs.join('/')}`)) throw methodNotSupported();
  const t = target(ctx, group, version, rest);
  if (t.subresource !== undefined && t.subresource !== 'log')
    throw notFound('the server could not find the requested resource');
  const r: ServeRequest = { ...base, segs, target: t };
  if (t.subresource === undefined && isWatch(r) && t.name !== undefined)
    throw methodNotAllowed('watch of a single object by path');
  return r;
}

/** Answer one request (Host already checked): the first route that takes it. */
export function dispatch(ctx: ServeContext, req: IncomingMessage, res: ServerResponse): void {
  const r = parse(ctx, req, res);
  const route = ROUTES.find((x) => x.method === req.method && x.matches(r));
  if (route) {
    route.handle(ctx, r);
    return;
  }
  // Never read a body: answer and close, so a large upload costs nothing.
  res.setHeader('Connection', 'close');
  throw methodNotAllowed(req.method ?? '?');
}
