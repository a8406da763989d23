/** Field selectors read a field the object leaves out as the API server reads it (defaults, zero values). */
import { describe, expect, it } from 'vitest';
import { parseFieldSelector } from '../../src/serve/selectors.js';
import type { KubeObject } from '../../src/serve/store.js';

const core = (kind: string) => ({ group: '', kind });
const bare = (extra: Record<string, unknown> = {}): KubeObject =>
  ({ metadata: { name: 'x', namespace: 'ns' }, ...extra }) as KubeObject;
const matches = (kind: string, selector: string, object: KubeObject) =>
  parseFieldSelector(selector, core(kind))?.(object);

describe('field selectors on fields an object leaves out', () => {
  it('Node spec.unschedulable reads "false" when missing (strconv.FormatBool of the zero value)', () => {
    expect(matches('Node', 'spec.unschedulable=false', bare())).toBe(true);
    expect(matches('Node', 'spec.unschedulable!=true', bare())).toBe(true);
    expect(matches('Node', 'spec.unschedulable=true', bare())).toBe(false);
    expect(matches('Node', 'spec.unschedulable=true', bare({ spec: { unschedulable: true } }))).toBe(true);
  });

  it('Pod fields read their defaults, the deprecated serviceAccount and the first pod IP', () => {
    const pod = bare({ spec: { serviceAccount: 'old' }, status: { podIPs: [{ ip: '10.0.0.7' }] } });
    expect(matches('Pod', 'spec.restartPolicy=Always', pod)).toBe(true);
    expect(matches('Pod', 'spec.schedulerName=default-scheduler', pod)).toBe(true);
    expect(matches('Pod', 'spec.hostNetwork=false', pod)).toBe(true);
    expect(matches('Pod', 'spec.serviceAccountName=old', pod)).toBe(true);
    expect(matches('Pod', 'status.podIP=10.0.0.7', pod)).toBe(true);
    expect(matches('Pod', 'spec.nodeName=', pod)).toBe(true);
    expect(matches('Pod', 'spec.host=', pod)).toBe(true);
    expect(matches('Pod', 'status.podIPs=', pod)).toBe(true);
    expect(matches('Pod', 'spec.restartPolicy=Never', bare({ spec: { restartPolicy: 'Never' } }))).toBe(true);
  });

  it('Event source falls back to reportingComponent; Namespace, Secret and Service read their defaults', () => {
    const event = bare({ source: {}, reportingComponent: 'default-scheduler' });
    expect(matches('Event', 'source=default-scheduler', event)).toBe(true);
    expect(matches('Namespace', 'status.phase=Active', bare())).toBe(true);
    expect(matches('Secret', 'type=Opaque', bare())).toBe(true);
    expect(matches('Service', 'spec.type=ClusterIP', bare())).toBe(true);
    expect(matches('ReplicationController', 'status.replicas=0', bare())).toBe(true);
  });

  it('accepts exactly the fields the API server converts for the kind', () => {
    // Node and Namespace convert no metadata.namespace (pkg/apis/core/v1/conversion.go).
    expect(() => parseFieldSelector('metadata.namespace=x', core('Node'))).toThrow(/not supported/);
    expect(() => parseFieldSelector('metadata.namespace=x', core('Namespace'))).toThrow(/not supported/);
    expect(() => parseFieldSelector('status.phase=Running', core('Node'))).toThrow(/not supported/);
    // Any other kind, of any group, has metadata.name and metadata.namespace.
    const crd = { group: 'machineconfiguration.openshift.io', kind: 'MachineConfigPool' };
    expect(parseFieldSelector('metadata.namespace=', crd)?.(bare({ metadata: { name: 'x' } }))).toBe(true);
    expect(() => parseFieldSelector('spec.paused=false', crd)).toThrow(/not supported/);
  });
});
