/** A pod log, from the index built at load time, never from a path in the URL (routes/index.ts). */
import type { ServerResponse } from 'node:http';
import { type ServeContext, sendError, type Target } from '../http.js';
import { sendLog } from '../logs.js';
import { typeKey } from '../resources.js';
import { ApiError, badRequest, notFound } from '../status.js';

export async function log(
  ctx: ServeContext,
  res: ServerResponse,
  t: Target,
  q: URLSearchParams,
): Promise<void> {
  let release: (() => void) | undefined;
  try {
    if (t.type.kind !== 'Pod' || t.namespace === undefined || t.name === undefined) {
      throw notFound('the server could not find the requested resource');
    }
    const pod = ctx.opts.store.get(typeKey(t.type), t.namespace, t.name);
    if (!pod) throw notFound(`pods "${t.name}" not found`, { name: t.name, kind: 'pods' });
    const containers = ((pod.spec as { containers?: { name?: unknown }[] } | undefined)?.containers ?? [])
      .map((c) => c.name)
      .filter((n): n is string => typeof n === 'string');
    const container = q.get('container') ?? (containers.length === 1 ? containers[0] : undefined);
    if (container === undefined) {
      throw badRequest(
        `a container name must be specified for pod ${t.name}, choose one of: [${containers.join(' ')}]`,
      );
    }
    const files = ctx.opts.logs.get(`${t.namespace}/${t.name}/${container}`);
    const previous = q.get('previous') === 'true';
    const file = previous ? files?.previous : files?.current;
    if (!file) {
      throw badRequest(
        `the input holds no ${previous ? 'previous ' : ''}log for container "${container}" in pod "${t.name}"`,
      );
    }
    const limitBytes = q.get('limitBytes');
    const tail = q.get('tailLines');
    const max = ctx.limits.maxLogBytes;
    const asked = limitBytes !== null && /^\d+$/.test(limitBytes) ? Number(limitBytes) : 0;
    release = await ctx.logGate.acquire(res);
    await sendLog(res, {
      file,
      cap: asked > 0 ? Math.min(asked, max) : max,
      ...(tail !== null && /^\d+$/.test(tail) ? { tailLines: Math.min(Number(tail), 1e9) } : {}),
      stallMs: ctx.limits.requestTimeoutMs,
    });
  } catch (err) {
    if (res.destroyed) return;
    if (err instanceof ApiError) sendError(res, err);
    else sendError(res, new ApiError(500, 'InternalError', 'the log could not be read'));
  } finally {
    release?.();
  }
}
