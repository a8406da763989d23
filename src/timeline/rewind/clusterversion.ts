/**
 * A ClusterVersion at the moment: its history entries by their times (one completed after the moment
 * is still Partial), the release it wanted then, and its conditions.
 */
import type { ClusterVersion, Observed } from '../../model/index.js';
import { parseTime } from '../../model/index.js';
import { intervalsOf } from '../query.js';
import type { RewindContext } from './context.js';
import type { KindRewinder } from './kind.js';

const REACHED_RE = /cluster reached (\S+)/;

function clusterVersion(r: RewindContext, seen: Observed<ClusterVersion>): Observed<ClusterVersion> {
  const cv = seen.object;
  const key = `ClusterVersion/${cv.metadata.name}`;
  // The monitor's `cluster reached X`, to the millisecond: where in its whole second a completion
  // time falls (see rewindCondition).
  const reached = intervalsOf(r.history, key).filter(
    (i) => !i.source.startsWith('derived:') && REACHED_RE.test(i.message.humanMessage),
  );
  const entries = (cv.status?.history ?? []).flatMap((h) => {
    const started = parseTime(h.startedTime);
    if (started === undefined) {
      r.note(key, 'status.history[].startedTime', `entry ${h.version || h.image || '?'} has no start: kept`);
      return [h];
    }
    if (started > r.at) return [];
    const completed = parseTime(h.completionTime);
    const stamp = h.completionTime;
    const target = h.version || h.image;
    const precise =
      completed !== undefined && typeof stamp === 'string' && !/\.\d/.test(stamp) && target
        ? reached.find(
            (i) =>
              i.from > completed &&
              i.from < completed + 1000 &&
              REACHED_RE.exec(i.message.humanMessage)?.[1] === target,
          )
        : undefined;
    // The stamp itself stays the snapshot's, as status without --at reads it.
    const at = precise?.from ?? completed;
    if (at !== undefined && at > r.at) return [{ ...h, state: 'Partial', completionTime: null }];
    return [h];
  });
  const newest = entries[0];
  const dropped = (cv.status?.history?.length ?? 0) - entries.length;
  // With no entry begun by then, the release the CVO wanted is not known: the snapshot's is later.
  const desiredUnknown = !newest && !r.final && cv.status?.desired !== undefined;
  if (desiredUnknown)
    r.note(
      key,
      'status.desired',
      'no history entry had begun by then, so the release is not known: left out',
    );
  const desired = newest
    ? { version: newest.version ?? '', image: newest.image ?? '' }
    : desiredUnknown
      ? undefined
      : cv.status?.desired;
  let spec = cv.spec;
  // A request the CVO had not taken up by the end (refused, or not yet loaded) may have come after
  // the moment as well: handled as a later update is.
  const wanted = cv.spec?.desiredUpdate;
  const pending =
    !r.final &&
    newest !== undefined &&
    wanted !== undefined &&
    wanted !== null &&
    ((!!wanted.version && wanted.version !== newest.version) ||
      (!!wanted.image && wanted.image !== newest.image));
  if ((dropped > 0 || pending) && cv.spec?.desiredUpdate) {
    spec = {
      ...cv.spec,
      desiredUpdate: {
        ...(newest?.version ? { version: newest.version } : {}),
        ...(newest?.image ? { image: newest.image } : {}),
      },
    };
    r.note(
      key,
      'spec.desiredUpdate',
      'when the later update was requested is not recorded: taken as the release the CVO was on',
    );
  }
  // The payload hash and the generations change when a new update is asked for and taken up: with
  // an update requested or begun after the moment, the snapshot's are that later update's.
  if (dropped > 0 || pending) {
    const later: [string, unknown][] = [
      ['status.versionHash', cv.status?.versionHash],
      ['status.observedGeneration', cv.status?.observedGeneration],
      ['metadata.generation', cv.metadata.generation],
    ];
    for (const [field, value] of later)
      if (value !== undefined && value !== null)
        r.note(key, field, 'a later update changed it and its value then is not recorded: as last seen');
  }
  const available = cv.status?.availableUpdates;
  if (!r.final && Array.isArray(available) && available.length > 0)
    r.note(key, 'status.availableUpdates', 'the update graph is not recorded over time: as last seen');
  const conditions = r.conditions('ClusterVersion', cv);
  const { desired: _lastDesired, ...status } = cv.status ?? {};
  const object: ClusterVersion = {
    ...cv,
    ...(spec ? { spec } : {}),
    status: {
      ...status,
      history: entries,
      ...(desired ? { desired } : {}),
      ...(conditions ? { conditions } : {}),
    },
  };
  return { object, ref: seen.ref };
}

export const clusterVersionRewinder: KindRewinder<'ClusterVersion'> = {
  create: (r) => ({ rewind: (list) => list.filter(r.existed).map((o) => clusterVersion(r, o)) }),
};
