import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ReleaseComponent, ReleasePayload } from '../model/history.js';
import { ComponentIndex } from './components.js';
import { configEmbedding, diffReleases } from './diff.js';

const img = (h: string) =>
  `quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:${h.repeat(64).slice(0, 64)}`;
const comp = (name: string, h: string, commit?: string): ReleaseComponent => ({
  name,
  pullSpec: img(h),
  digest: `sha256:${h.repeat(64).slice(0, 64)}`,
  ...(commit ? { commit } : {}),
});
const release = (version: string, components: ReleaseComponent[]): ReleasePayload => ({
  version,
  components,
  ref: { file: `${version}.json` },
});

const BASE = [
  comp('cli', 'c'),
  comp('machine-config-operator', 'm', 'mco1'),
  comp('machine-os-content', 'o'),
  comp('pod', 'p', 'pod1'),
  comp('haproxy-router', 'h'),
];
const withChange = (name: string, h: string, commit?: string) =>
  BASE.map((c) => (c.name === name ? comp(name, h, commit ?? c.commit) : c));

describe('diffReleases: what cannot be compared', () => {
  it('a tag against a digest is "cannot compare", and no rollout is predicted from it', () => {
    const tagged = BASE.map((c) =>
      c.name === 'pod'
        ? { name: 'pod', pullSpec: 'quay-proxy.ci.openshift.org/openshift/ci:ocp_4.23_pod' }
        : c,
    );
    const d = diffReleases(release('a', BASE), release('b', tagged));
    expect(d.changed).toEqual([]);
    expect(d.incomparable.map((c) => [c.name, c.why])).toEqual([['pod', 'tag-vs-digest']]);
    expect(d.nodesWillRoll).toBe('cannot-tell');
    expect(d.levelTooEarly).toBe('cannot-tell');
    expect(d.warnings.join('\n')).not.toMatch(/bug 1999556/);
  });

  it('two different tags are "cannot compare", like a tag against a digest: a tag names no content', () => {
    const byTag = (tag: string) =>
      BASE.map((c) =>
        c.name === 'pod' ? { name: 'pod', pullSpec: `quay-proxy.ci.openshift.org/openshift/ci:${tag}` } : c,
      );
    const d = diffReleases(release('a', byTag('ocp_4.23_pod')), release('b', byTag('ocp_4.24_pod')));
    expect(d.changed).toEqual([]);
    expect(d.unchanged).toBe(4);
    expect(d.incomparable.map((c) => [c.name, c.why])).toEqual([['pod', 'tag-vs-tag']]);
    expect(d.nodesWillRoll).toBe('cannot-tell');
    expect(d.levelTooEarly).toBe('cannot-tell');
    expect(d.cannotTell).toEqual([
      'the images of pod cannot be compared (the payloads name them by different tags, which say nothing of the images)',
    ]);
    expect(d.warnings.join('\n')).not.toMatch(/bug 1999556/);
  });

  it('the same tag on both sides is unchanged, as the payloads say it', () => {
    const tagged = BASE.map((c) => (c.name === 'pod' ? { name: 'pod', pullSpec: 'example.org/ocp:pod' } : c));
    const d = diffReleases(release('a', tagged), release('b', tagged));
    expect(d).toMatchObject({
      changed: [],
      incomparable: [],
      unchanged: 5,
      nodesWillRoll: 'no',
      cannotTell: [],
    });
  });

  it('a known change still rolls nodes beside a component that cannot be compared', () => {
    const after = withChange('machine-os-content', 'x').map((c) =>
      c.name === 'pod' ? { name: 'pod', pullSpec: 'example.org/pod:tag' } : c,
    );
    const d = diffReleases(release('a', BASE), release('b', after));
    expect(d.nodesWillRoll).toBe('yes');
    expect(d.osImage).toBe('changed');
  });

  it('no components, or none in common: cannot tell', () => {
    expect(diffReleases(release('a', []), release('b', [])).nodesWillRoll).toBe('cannot-tell');
    const other = [comp('pod', 'p')];
    const d = diffReleases(release('a', [comp('cli', 'c')]), release('b', other));
    expect(d.cannotTell).toEqual([
      'the two payloads share no component: they are not two releases of one stream',
    ]);
    expect(d).toMatchObject({ nodesWillRoll: 'cannot-tell', osImage: 'cannot-tell', reachingConfigs: [] });
  });
});

describe('diffReleases', () => {
  it('the bug-2019850 shape: only pod changed → nodes roll, and the operator reports level too early', () => {
    const d = diffReleases(release('a', BASE), release('b', withChange('pod', 'q', 'pod2')));
    expect(d.changed.map((c) => [c.name, c.before.pullSpec, c.after.pullSpec, c.commitChanged])).toEqual([
      ['pod', img('p'), img('q'), true],
    ]);
    expect(d.reachingConfigs.map((r) => `${r.name}:${r.reach}`)).toEqual(['pod:all-platforms']);
    expect(d.nodesWillRoll).toBe('yes');
    expect(d.machineConfigOperator).toEqual({ imageChanged: false, commitChanged: false });
    expect(d.osImageChanged).toBe(false);
    expect(d.levelTooEarly).toBe('yes');
    expect(d.warnings[0]).toMatch(
      /^rendered MachineConfigs will change \(pod\) while the machine-config-operator image is unchanged/,
    );
    expect(d.unchanged).toBe(4);
  });

  it('a new MCO commit is seen by the old guard: nodes roll, no warning', () => {
    const b = withChange('pod', 'q').map((c) =>
      c.name === 'machine-config-operator' ? comp(c.name, 'n', 'mco2') : c,
    );
    const d = diffReleases(release('a', BASE), release('b', b));
    expect(d.machineConfigOperator).toEqual({ imageChanged: true, commitChanged: true });
    expect(d.levelTooEarly).toBe('no');
    expect(d.warnings).toEqual([]);
  });

  it('a new OS image is seen by the osImageURL guard (bug 1955929)', () => {
    const b = withChange('pod', 'q').map((c) => (c.name === 'machine-os-content' ? comp(c.name, 'x') : c));
    const d = diffReleases(release('a', BASE), release('b', b));
    expect(d.osImageChanged).toBe(true);
    expect(d.levelTooEarly).toBe('no');
  });

  it('an MCO image rebuilt from the same commit still changes configs, unseen: yes', () => {
    const d = diffReleases(
      release('a', BASE),
      release('b', withChange('machine-config-operator', 'n', 'mco1')),
    );
    expect(d.machineConfigOperator).toEqual({ imageChanged: true, commitChanged: false });
    expect(d.levelTooEarly).toBe('yes');
    expect(d.warnings[0]).toContain('commit is unchanged (its image was rebuilt)');
  });

  it('an MCO image change without commit annotations is only possibly the condition', () => {
    const a = BASE.map((c) => (c.name === 'machine-config-operator' ? comp(c.name, 'm') : c));
    const d = diffReleases(
      release('a', a),
      release(
        'b',
        a.map((c) => (c.name === 'machine-config-operator' ? comp(c.name, 'n') : c)),
      ),
    );
    expect(d.machineConfigOperator).toEqual({ imageChanged: true });
    expect(d.levelTooEarly).toBe('possible');
  });

  it('on-prem-only images roll on-prem nodes only', () => {
    const d = diffReleases(release('a', BASE), release('b', withChange('haproxy-router', 'z')));
    expect(d.nodesWillRoll).toBe('on-prem');
    expect(d.levelTooEarly).toBe('yes');
    expect(d.warnings[0]).toContain('will change on on-prem platforms');
  });

  it('components outside the configs do not roll nodes', () => {
    const b = [...withChange('cli', 'd'), comp('new-thing', 'e')];
    const d = diffReleases(release('a', BASE), release('b', b));
    expect(d.changed.map((c) => c.name)).toEqual(['cli']);
    expect(d.added.map((c) => c.name)).toEqual(['new-thing']);
    expect(d.nodesWillRoll).toBe('no');
    expect(d.levelTooEarly).toBe('no');
  });

  it('knows where the OS tags of newer releases land', () => {
    expect(configEmbedding('rhel-coreos')?.embeddedIn).toBe('spec.osImageURL');
    expect(configEmbedding('rhel-coreos-10-extensions')?.embeddedIn).toContain('extensions');
    expect(configEmbedding('cli')).toBeUndefined();
  });

  it('properties: diff(a, a) is empty; diff(b, a) swaps added and removed', () => {
    const arbRelease = fc
      .uniqueArray(
        fc.record({
          name: fc.constantFrom(...['pod', 'cli', 'coredns', 'machine-os-content', 'x', 'y']),
          h: fc.constantFrom('1', '2', '3'),
        }),
        {
          selector: (c) => c.name,
          maxLength: 6,
        },
      )
      .map((cs) => cs.map((c) => comp(c.name, c.h)));
    fc.assert(
      fc.property(arbRelease, arbRelease, (x, y) => {
        const same = diffReleases(release('a', x), release('a', x));
        expect(same.added.length + same.removed.length + same.changed.length).toBe(0);
        const ab = diffReleases(release('a', x), release('b', y));
        const ba = diffReleases(release('b', y), release('a', x));
        expect(ba.added).toEqual(ab.removed);
        expect(ba.removed).toEqual(ab.added);
        expect(ba.changed.map((c) => [c.name, c.before, c.after])).toEqual(
          ab.changed.map((c) => [c.name, c.after, c.before]),
        );
        expect(ba.nodesWillRoll).toBe(ab.nodesWillRoll);
      }),
    );
  });
});

describe('ComponentIndex', () => {
  const a = release('a', BASE);
  const index = new ComponentIndex([a]);

  it('finds a component by digest, whatever registry the pull spec names', () => {
    expect(index.componentOf(`sha256:${'p'.repeat(64)}`)).toBeUndefined(); // not hex: not a digest
    expect(index.componentOf(img('o'))).toBe('machine-os-content');
    const digest = `sha256:${'c'.repeat(64)}`;
    expect(index.componentOf(digest)).toBe('cli');
    expect(index.componentOf(`mirror.example.com:5000/ocp/release@${digest}`)).toBe('cli');
  });

  it('finds a tag pull spec only exactly', () => {
    const byTag = new ComponentIndex([
      release('t', [{ name: 'pod', pullSpec: 'registry.example.com/ocp:pod' }]),
    ]);
    expect(byTag.componentOf('registry.example.com/ocp:pod')).toBe('pod');
    expect(byTag.componentOf('registry.example.com/ocp:pod2')).toBeUndefined();
  });

  it('names every tag backed by the same image', () => {
    const shared = new ComponentIndex([
      release('s', [comp('machine-os-content', 'e'), comp('rhel-coreos', 'e')]),
    ]);
    expect(shared.componentOf(img('e'))).toBe('machine-os-content/rhel-coreos');
  });

  it('answers --image-for', () => {
    expect(index.imageFor('pod').map((m) => m.component.pullSpec)).toEqual([img('p')]);
    expect(index.imageFor('nope')).toEqual([]);
  });
});
