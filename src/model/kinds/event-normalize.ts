/**
 * events.k8s.io/v1 Events name things differently from core/v1 Events (`regarding` for
 * `involvedObject`, `note` for `message`, `deprecated*` for the counters). Analyses read the core/v1
 * names, so both shapes are brought to them here; the original fields stay on the object.
 */
type Loose = Record<string, unknown>;

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/**
 * The event with the core/v1 names filled in. A core/v1 Event (gather-extra's tens of thousands)
 * already has them all, so it is returned as it came, not copied: the copy is made only when a field
 * is about to be written, and a write of the value already there is no change. The input is never
 * modified either way.
 */
export function normalizeEvent<E extends object>(event: E): E {
  const raw = event as Loose;
  let out: Loose | undefined;
  const set = (field: string, value: unknown): void => {
    if (out === undefined) {
      if (raw[field] === value) return;
      out = { ...raw };
    }
    out[field] = value;
  };
  // Every field is read before any write to it, so reading the input is reading the copy.
  if (!raw.involvedObject && raw.regarding) set('involvedObject', { ...raw.regarding });
  const message = raw.message;
  if (message === undefined || message === null) {
    if (typeof raw.note === 'string') set('message', raw.note);
  }
  const firstTimestamp = str(raw.firstTimestamp) ?? str(raw.deprecatedFirstTimestamp);
  if (firstTimestamp !== undefined) set('firstTimestamp', firstTimestamp);
  const lastTimestamp =
    str(raw.lastTimestamp) ?? str(raw.deprecatedLastTimestamp) ?? lastObserved(raw.series);
  if (lastTimestamp !== undefined) set('lastTimestamp', lastTimestamp);
  const count = raw.count;
  if (count === undefined || count === null) {
    const fallback = numberOr(raw.deprecatedCount) ?? seriesCount(raw.series);
    if (fallback !== undefined) set('count', fallback);
  }
  if (!raw.source) {
    const deprecated = raw.deprecatedSource;
    if (deprecated !== null && typeof deprecated === 'object') {
      set('source', { ...(deprecated as Loose) });
    } else {
      const component = str(raw.reportingController);
      const host = str(raw.reportingInstance);
      if (component !== undefined) set('source', { component, ...(host !== undefined ? { host } : {}) });
    }
  }
  return (out ?? raw) as E;
}

function numberOr(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

function seriesCount(series: unknown): number | undefined {
  if (series === null || typeof series !== 'object') return undefined;
  return numberOr((series as Loose).count);
}

function lastObserved(series: unknown): string | undefined {
  if (series === null || typeof series !== 'object') return undefined;
  return str((series as Loose).lastObservedTime);
}
