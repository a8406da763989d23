/**
 * Which OpenShift version each rendered MachineConfig carries. Recent MCOs write it on the config
 * (`release-image-version`); older ones (4.12 and before, e.g. the 4.8 and 4.9 must-gathers) do not,
 * so atlevel falls back on who rendered it: a config made by the running machine-config controller
 * (its `generated-by-controller-version` is the ControllerConfig's git hash) belongs to the release
 * that controller came from — the ControllerConfig's releaseImage found in the ClusterVersion
 * history, or, once the last update completed, that update's version. Failing both, the config is
 * placed by its creation time in ClusterVersion history.
 */
import type { ClusterHistory } from '../model/index.js';
import { type ClusterVersion, MCO, parseTime } from '../model/index.js';

type VersionSource = 'annotation' | 'controller' | 'history';

export interface ConfigVersion {
  readonly version: string;
  readonly source: VersionSource;
}

const CONTROLLER_BUILD = 'machineconfiguration.openshift.io/generated-by-version';

function runningControllerRelease(
  history: ClusterHistory,
  cv: ClusterVersion,
): { hash: string; version: string } | undefined {
  const controller = history.objects.controllerConfigs[0]?.object;
  if (!controller) return undefined;
  const hash = /\.git\.([0-9a-f]{7,40})/.exec(controller.metadata.annotations?.[CONTROLLER_BUILD] ?? '')?.[1];
  if (!hash) return undefined;
  const entries = cv.status?.history ?? [];
  const image = controller.spec?.releaseImage;
  const byImage = image ? entries.find((h) => h.image === image)?.version : undefined;
  const latest = entries[0];
  const version = byImage || (latest?.state === 'Completed' ? latest.version : undefined);
  return version ? { hash, version } : undefined;
}

/** Rendered config name → the version it carries, for every config whose version can be known. */
export function configVersions(history: ClusterHistory, cv: ClusterVersion): Map<string, ConfigVersion> {
  const out = new Map<string, ConfigVersion>();
  const running = runningControllerRelease(history, cv);
  for (const { object } of history.objects.machineConfigs) {
    const a = object.metadata.annotations ?? {};
    const annotated = a[MCO.releaseImageVersion];
    if (annotated) {
      out.set(object.metadata.name, { version: annotated, source: 'annotation' });
      continue;
    }
    const renderedBy = a[MCO.generatedByControllerVersion];
    if (running && renderedBy?.startsWith(running.hash)) {
      out.set(object.metadata.name, { version: running.version, source: 'controller' });
      continue;
    }
    const placed = versionByHistory(cv, parseTime(object.metadata.creationTimestamp));
    if (placed && object.metadata.name.startsWith('rendered-')) {
      out.set(object.metadata.name, { version: placed, source: 'history' });
    }
  }
  return out;
}

/**
 * Last resort, for gather-extra runs with neither the annotation nor a ControllerConfig: a config
 * belongs to the completed ClusterVersion history entry during whose span it was rendered (the
 * render controller renders for a release only once that release's operator has written the
 * ControllerConfig). Configs rendered while an entry is still Partial are not placed.
 */
function versionByHistory(cv: ClusterVersion, created: number | undefined): string | undefined {
  if (created === undefined) return undefined;
  const entries = cv.status?.history ?? []; // newest first
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i];
    const started = parseTime(e?.startedTime);
    if (!e || started === undefined || created < started) continue;
    return e.state === 'Completed' && e.version ? e.version : undefined;
  }
  return undefined;
}
