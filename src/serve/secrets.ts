/**
 * Secrets in the inputs are served without their values unless `--serve-secrets` is given, as
 * `oc adm inspect` (what must-gather runs) cleans them before writing them (openshift/oc
 * pkg/cli/admin/inspect, elideSecret): every data value is emptied but those of the keys known to hold
 * public certificates (tls.crt, ca.crt, service-ca.crt), and the token and last-applied annotations
 * are emptied. stringData (never stored by a real API server, but an input may hold it) is emptied the
 * same way. An annotation says so, for whoever reads the object.
 */
import type { KindObject } from './moment.js';

const PUBLIC_KEYS: ReadonlySet<string> = new Set(['tls.crt', 'ca.crt', 'service-ca.crt']);
const EMPTIED_ANNOTATIONS: readonly string[] = [
  'openshift.io/token-secret.value',
  'kubectl.kubernetes.io/last-applied-configuration',
];
const REDACTED = 'atlevel.io/redacted';

function isSecret(item: Pick<KindObject, 'kind' | 'apiVersion'>): boolean {
  return item.kind === 'Secret' && (item.apiVersion === undefined || item.apiVersion === 'v1');
}

/** The values emptied; anything but a map of them (a malformed Secret) is dropped whole. */
function emptied(values: unknown): unknown {
  if (values === null) return null;
  if (typeof values !== 'object' || Array.isArray(values)) return {};
  const out: Record<string, unknown> = Object.create(null);
  for (const [k, v] of Object.entries(values)) out[k] = PUBLIC_KEYS.has(k) ? v : '';
  return { ...out };
}

/** The item as served: a Secret without its values; anything else as it is. */
export function redactSecret(item: KindObject): KindObject {
  if (!isSecret(item)) return item;
  const { data, stringData, ...rest } = item.object;
  const meta = item.object.metadata;
  const annotations: Record<string, unknown> = {
    ...((meta.annotations as Record<string, unknown> | undefined) ?? {}),
  };
  for (const a of EMPTIED_ANNOTATIONS) if (a in annotations) annotations[a] = '';
  annotations[REDACTED] = 'values emptied as oc adm inspect does; atlevel serve --serve-secrets serves them';
  return {
    ...item,
    object: {
      ...rest,
      metadata: { ...meta, annotations },
      ...(data !== undefined ? { data: emptied(data) } : {}),
      ...(stringData !== undefined ? { stringData: emptied(stringData) } : {}),
    } as KindObject['object'],
  };
}
