/**
 * What get, list and watch share: the list options as the API server validates them, the selectors
 * as one matcher, and waiting for a resourceVersion the store has not reached.
 */
import type { ServerResponse } from 'node:http';
import type { ServeContext, Target } from '../http.js';
import { type Matcher, parseFieldSelector, parseLabelSelector } from '../selectors.js';
import { type FieldError, forbidden, invalid, notSupported, tooLargeResourceVersion } from '../status.js';

export function matchers(t: Target, q: URLSearchParams): Matcher {
  const labels = parseLabelSelector(q.get('labelSelector'));
  const fields = parseFieldSelector(q.get('fieldSelector'), t.type);
  const ns = t.namespace;
  return (o) =>
    (ns === undefined || o.metadata.namespace === ns) && (!labels || labels(o)) && (!fields || fields(o));
}

/**
 * The list and watch options as the API server checks them before anything else (apimachinery
 * pkg/apis/meta/internalversion/validation, ValidateListOptions; the list handler answers its errors
 * as 422 Invalid, handlers/get.go ListResource). This server streams no initial events, so it
 * answers `sendInitialEvents` as a server with the WatchList feature gate off.
 */
export function validateOptions(q: URLSearchParams, watch: boolean): void {
  const match = q.get('resourceVersionMatch') ?? '';
  const rv = q.get('resourceVersion') ?? '';
  const cont = q.get('continue') ?? '';
  const sendInitialEvents = (q.get('sendInitialEvents') ?? '') !== '';
  const field = 'resourceVersionMatch';
  const errs: FieldError[] = [];
  if (watch) {
    if (sendInitialEvents) {
      if (match !== 'NotOlderThan')
        errs.push(
          forbidden(field, 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'),
        );
      errs.push(
        forbidden(
          'sendInitialEvents',
          'sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled',
        ),
      );
    }
    if (match !== '') {
      if (!sendInitialEvents)
        errs.push(
          forbidden(
            field,
            'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided',
          ),
        );
      if (match !== 'NotOlderThan') errs.push(notSupported(field, match, ['NotOlderThan']));
      if (cont !== '')
        errs.push(forbidden(field, 'resourceVersionMatch is forbidden when continue is provided'));
    }
  } else {
    if (match !== '') {
      if (rv === '')
        errs.push(forbidden(field, 'resourceVersionMatch is forbidden unless resourceVersion is provided'));
      if (cont !== '')
        errs.push(forbidden(field, 'resourceVersionMatch is forbidden when continue is provided'));
      if (match !== 'Exact' && match !== 'NotOlderThan')
        errs.push(notSupported(field, match, ['Exact', 'NotOlderThan', '']));
      if (match === 'Exact' && rv === '0')
        errs.push(forbidden(field, 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'));
    }
    if (sendInitialEvents)
      errs.push(forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for list'));
  }
  if (errs.length > 0) throw invalid('meta.k8s.io', 'ListOptions', '', errs);
}

/**
 * Run `then` once the store has reached resourceVersion `rv`, or answer "Too large resource version"
 * after the wait: the apiserver's watch cache blocks a list at a resourceVersion it has not seen yet
 * for up to blockTimeout, then gives up (storage/cacher/watch_cache.go waitUntilFreshAndBlock). During
 * a replay the store may get there meanwhile; a recording that is not replaying never does.
 */
export function whenReached(ctx: ServeContext, res: ServerResponse, rv: number, then: () => void): void {
  const store = ctx.opts.store;
  let done = false;
  const finish = (reached: boolean) => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    unsubscribe();
    res.off('close', abandon);
    if (res.destroyed) return;
    try {
      if (!reached) throw tooLargeResourceVersion(rv, store.resourceVersion);
      then();
    } catch (err) {
      ctx.fail(res, err);
    }
  };
  const abandon = () => finish(false);
  const unsubscribe = store.subscribe(() => {
    if (store.resourceVersion >= rv) finish(true);
  });
  const timer = setTimeout(() => finish(false), ctx.limits.tooLargeWaitMs);
  res.on('close', abandon);
}
