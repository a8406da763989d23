import { describe, expect, it } from 'vitest';
import { InputError } from '../model/index.js';
import { ObjectStore } from './store.js';

function cv(clusterID: string | undefined, resourceVersion = '1') {
  return {
    kind: 'ClusterVersion',
    metadata: { name: 'version', resourceVersion },
    spec: clusterID === undefined ? {} : { clusterID },
  };
}

describe('ObjectStore', () => {
  it('keeps the newest snapshot of an object seen twice, and counts the other', () => {
    const store = new ObjectStore();
    store.put('ClusterVersion', cv('a', '7'), { file: 'new.yaml' });
    store.put('ClusterVersion', cv('a', '5'), { file: 'old.yaml' });
    expect(store.duplicates).toBe(1);
    expect(store.snapshot().clusterVersions.map((o) => o.ref.file)).toEqual(['new.yaml']);
  });

  it('keeps objects in the order first seen, a newer copy in the place of the one it replaces', () => {
    const store = new ObjectStore();
    const event = (namespace: string | undefined, name: string, resourceVersion: string) => ({
      kind: 'Event',
      metadata: { name, resourceVersion, ...(namespace === undefined ? {} : { namespace }) },
    });
    store.put('Event', event('a', 'e1', '1'), { file: 'first' });
    store.put('Event', event('b', 'e1', '1'), { file: 'other namespace' });
    store.put('Event', event(undefined, 'e1', '1'), { file: 'no namespace' });
    store.put('Event', event('', 'e1', '2'), { file: 'empty namespace' });
    store.put('Pod', { kind: 'Pod', metadata: { name: 'e1', namespace: 'a' } }, { file: 'pod' });
    store.put('Event', event('a', 'e2', '1'), { file: 'second' });
    store.put('Event', event('a', 'e1', '3'), { file: 'newer first' });
    store.put('Event', event('a', 'e2', '0'), { file: 'older second' });
    const snapshot = store.snapshot();
    // An absent namespace and an empty one are the same object's.
    expect(snapshot.events.map((o) => o.ref.file)).toEqual([
      'newer first',
      'other namespace',
      'empty namespace',
      'second',
    ]);
    expect(snapshot.pods.map((o) => o.ref.file)).toEqual(['pod']);
    expect(store.size).toBe(5);
    expect(store.duplicates).toBe(3);
  });

  it('refuses a ClusterVersion of another cluster, naming both files and IDs', () => {
    const store = new ObjectStore();
    store.put('ClusterVersion', cv('id-one'), { file: 'one/cv.yaml' });
    store.put('ClusterVersion', cv(undefined), { file: 'unnamed/cv.yaml' });
    store.put('ClusterVersion', cv('id-one', '2'), { file: 'one-again/cv.yaml' });
    let thrown: unknown;
    try {
      store.put('ClusterVersion', cv('id-two'), { file: 'two/cv.yaml' });
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(InputError);
    const err = thrown as InputError;
    expect(err.file).toBe('two/cv.yaml');
    expect(err.message).toBe(
      'two/cv.yaml: its ClusterVersion has clusterID id-two, but one/cv.yaml has clusterID id-one: the inputs are from two clusters (give the files of one cluster at a time)',
    );
  });

  it('prints a hostile clusterID without its control characters, and cut short', () => {
    const store = new ObjectStore();
    store.put('ClusterVersion', cv('a'), { file: 'a.yaml' });
    let message = '';
    try {
      store.put('ClusterVersion', cv(`\u001b[31m${'x'.repeat(500)}`), { file: 'b.yaml' });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/^b\.yaml: its ClusterVersion has clusterID \S+…, but a\.yaml has clusterID a: /);
    expect(message).not.toContain('\u001b');
    expect(message).not.toContain('x'.repeat(81));
  });
});
