/**
 * events.k8s.io/v1 Events name things differently from core/v1 Events (`regarding` for
 * `involvedObject`, `note` for `message`, `deprecated*` for the counters). Analyses read the core/v1
 * names, so both shapes are brought to them here; the original fields stay on the object.
 */
import type { KubeEvent } from './objects.js';

type Loose = Record<string, unknown>;

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

export function normalizeEvent(event: KubeEvent): KubeEvent {
  const raw = event as KubeEvent & Loose;
  const out: KubeEvent & Loose = { ...raw };
  if (!out.involvedObject && out.regarding) out.involvedObject = { ...out.regarding };
  if (out.message === undefined || out.message === null) {
    if (typeof out.note === 'string') out.message = out.note;
  }
  const firstTimestamp = str(out.firstTimestamp) ?? str(raw.deprecatedFirstTimestamp);
  if (firstTimestamp !== undefined) out.firstTimestamp = firstTimestamp;
  const lastTimestamp =
    str(out.lastTimestamp) ?? str(raw.deprecatedLastTimestamp) ?? lastObserved(raw.series);
  if (lastTimestamp !== undefined) out.lastTimestamp = lastTimestamp;
  if (out.count === undefined || out.count === null) {
    const count = numberOr(raw.deprecatedCount) ?? seriesCount(raw.series);
    if (count !== undefined) out.count = count;
  }
  if (!out.source) {
    const deprecated = raw.deprecatedSource;
    if (deprecated !== null && typeof deprecated === 'object') {
      out.source = { ...(deprecated as Loose) };
    } else {
      const component = str(raw.reportingController);
      const host = str(raw.reportingInstance);
      if (component !== undefined) out.source = { component, ...(host !== undefined ? { host } : {}) };
    }
  }
  return out;
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
