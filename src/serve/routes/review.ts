/** The self reviews: SelfSubjectAccessReview and SelfSubjectRulesReview (routes/index.ts). */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Served } from '../access.js';
import { readBody, type ServeContext, sendJson } from '../http.js';
import { answerReview, type ReviewKind } from '../reviews.js';
import { ApiError } from '../status.js';

/** What the server serves, for the reviews' answers (access.ts). */
function served(ctx: ServeContext): Served {
  return {
    types: ctx.opts.store.types(),
    hasLogs: ctx.opts.logs.size > 0,
    hasExtras: ctx.opts.extra !== undefined,
    secretsRedacted: ctx.opts.secretsRedacted === true,
  };
}

/** A SelfSubjectAccessReview or SelfSubjectRulesReview: read the capped body, answer from access.ts. */
export async function review(
  ctx: ServeContext,
  req: IncomingMessage,
  res: ServerResponse,
  kind: ReviewKind,
): Promise<void> {
  try {
    const body = await readBody(req, ctx.limits.maxReviewBodyBytes);
    const answer = answerReview(kind, req.headers['content-type'], body, served(ctx));
    sendJson(res, answer.code, answer.body);
  } catch (err) {
    if (res.socket === null || res.socket.destroyed) return;
    // The rest of a body over the limit is never read: the connection goes with the answer.
    if (err instanceof ApiError && err.code === 413) res.setHeader('Connection', 'close');
    ctx.fail(res, err);
  }
}
