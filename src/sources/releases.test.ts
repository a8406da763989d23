import { describe, expect, it } from 'vitest';
import type { ReleasePayload } from '../model/history.js';
import type { ClusterVersion } from '../model/objects.js';
import { assignReleases, compareVersions } from './releases.js';

const payload = (version: string, file = `${version}.json`): ReleasePayload => ({
  version,
  components: [],
  ref: { file },
});

const cv = (desired: string, ...history: string[]): ClusterVersion => ({
  kind: 'ClusterVersion',
  metadata: { name: 'version' },
  status: {
    desired: { version: desired },
    history: history.map((version) => ({ state: 'Completed', version })),
  },
});

const MULTI =
  'quay.io/openshift-release-dev/ocp-release@sha256:79347bc3313a05e374a40fe47de804e23cc14f795ee51699721e459706cfe2c0';
const SINGLE_TAG = 'registry.build09.ci.openshift.org/ci-ln-hz4dqct/release:latest';
const SINGLE_PINNED = `registry.build09.ci.openshift.org/ci-ln-hz4dqct/release@sha256:${'d2'.repeat(32)}`;

/** A move to the multi-architecture payload: history[0] and [1] share the version, not the image. */
const migration = (): ClusterVersion => ({
  kind: 'ClusterVersion',
  metadata: { name: 'version' },
  status: {
    desired: { version: '4.18.0-ec.3', image: MULTI },
    history: [
      { state: 'Completed', version: '4.18.0-ec.3', image: MULTI },
      { state: 'Completed', version: '4.18.0-ec.3', image: SINGLE_TAG },
    ],
  },
});

describe('assignReleases, two payloads of one version (a move to the multi-architecture payload)', () => {
  it('keeps both and puts each in its slot by its release image, whatever the files are called or their order', () => {
    for (const files of [
      [
        { ...payload('4.18.0-ec.3', 'a.json'), image: SINGLE_PINNED },
        { ...payload('4.18.0-ec.3', 'b.json'), image: MULTI },
      ],
      [
        { ...payload('4.18.0-ec.3', 'b.json'), image: MULTI },
        { ...payload('4.18.0-ec.3', 'a.json'), image: SINGLE_PINNED },
      ],
    ]) {
      const notes: string[] = [];
      const pair = assignReleases(files, {}, migration(), notes);
      // Before, the second file was "ignored: version already read", and the first one in the list
      // (the single-architecture payload when listed first) was taken as the release updated to.
      expect(pair.to?.image).toBe(MULTI);
      expect(pair.from?.image).toBe(SINGLE_PINNED);
      expect(notes.some((n) => n.includes('ignored'))).toBe(false);
    }
  });

  it('two files of one version and one image are still one payload read twice', () => {
    const notes: string[] = [];
    const pair = assignReleases(
      [
        { ...payload('4.18.0-ec.3', 'a.json'), image: MULTI },
        { ...payload('4.18.0-ec.3', 'b.json'), image: MULTI },
      ],
      {},
      migration(),
      notes,
    );
    expect(pair.to?.ref.file).toBe('a.json');
    expect(pair.from).toBeUndefined();
    expect(notes).toContain(
      'release payload 4.18.0-ec.3 (b.json) ignored: version already read from another file',
    );
  });
});

describe('assignReleases', () => {
  it('matches the ClusterVersion history: to = desired, from = the entry before it', () => {
    const notes: string[] = [];
    const pair = assignReleases(
      [payload('4.10.0-a'), payload('4.10.0-b')],
      {},
      cv('4.10.0-b', '4.10.0-b', '4.10.0-a'),
      notes,
    );
    expect(pair.to?.version).toBe('4.10.0-b');
    expect(pair.from?.version).toBe('4.10.0-a');
    expect(notes).toEqual([
      'release payload 4.10.0-b (4.10.0-b.json) taken as the release updated to: it is the ClusterVersion desired version',
      'release payload 4.10.0-a (4.10.0-a.json) taken as the release updated from: it is the version before it in ClusterVersion history',
    ]);
  });

  it('falls back to file names', () => {
    const notes: string[] = [];
    const pair = assignReleases(
      [payload('x', 'run.tar.gz!release-to.json'), payload('y', 'dir/release_from.json')],
      {},
      undefined,
      notes,
    );
    expect(pair.to?.version).toBe('x');
    expect(pair.from?.version).toBe('y');
    expect(notes.join('\n')).toMatch(/file name says "to"/);
  });

  it('does not read "to" inside other words', () => {
    const pair = assignReleases(
      [payload('4.9.1', 'custom.json'), payload('4.9.0', 'photos.json')],
      {},
      undefined,
      [],
    );
    // Neither name says anything: the newer version is the target.
    expect(pair.to?.version).toBe('4.9.1');
    expect(pair.from?.version).toBe('4.9.0');
  });

  it('lets explicit files win and fills only the empty slot', () => {
    const notes: string[] = [];
    const pair = assignReleases(
      [payload('4.9.0'), payload('4.9.2')],
      { to: payload('4.9.1', 'given.json') },
      undefined,
      notes,
    );
    expect(pair.to?.ref.file).toBe('given.json');
    expect(pair.from?.version).toBe('4.9.0');
    expect(notes.some((n) => n.includes('4.9.2') && n.includes('ignored'))).toBe(true);
  });

  it('a given "to" of another version does not push the found releases out of their slots', () => {
    const notes: string[] = [];
    const given = payload('4.23', 'given.json');
    const pair = assignReleases(
      [payload('4.10.0-b', 'release-to.json'), payload('4.10.0-a', 'release-from.json')],
      { to: given },
      cv('4.10.0-b', '4.10.0-b', '4.10.0-a'),
      notes,
    );
    // history[0] is the newest entry: the target, never the release updated from.
    expect(pair.to?.ref.file).toBe('release-to.json');
    expect(pair.from?.ref.file).toBe('release-from.json');
    expect(pair.setAside).toEqual({ to: given });
    expect(notes.join('\n')).not.toMatch(
      /could not tell|taken as the release updated from: it matches ClusterVersion history\[0\]/,
    );
    expect(notes[0]).toMatch(
      /^--release-to 4\.23 \(given\.json\) not used: the update in the inputs is to 4\.10\.0-b/,
    );
  });

  it('a given "to" the history does not name is kept, and "from" is never the newest entry', () => {
    const notes: string[] = [];
    const pair = assignReleases(
      [payload('4.10.0-a', 'release-from.json')],
      { to: payload('4.23', 'given.json') },
      cv('4.10.0-b', '4.10.0-b', '4.10.0-a'),
      notes,
    );
    expect(pair.to?.ref.file).toBe('given.json');
    expect(pair.from?.ref.file).toBe('release-from.json');
    expect(pair.setAside).toBeUndefined();
  });

  it('a lone payload of the release updated from is "from", never taken for the target', () => {
    const notes: string[] = [];
    const pair = assignReleases(
      [payload('4.10.0-a', 'release-from.json')],
      {},
      cv('4.10.0-b', '4.10.0-b', '4.10.0-a'),
      notes,
    );
    expect(pair.to).toBeUndefined();
    expect(pair.from?.ref.file).toBe('release-from.json');
    expect(notes.join('\n')).not.toMatch(/taken as the release updated to/);
  });

  it('ignores a second file of the same version', () => {
    const notes: string[] = [];
    const pair = assignReleases(
      [payload('4.9.0', 'a.json'), payload('4.9.0', 'b.json')],
      {},
      undefined,
      notes,
    );
    expect(pair.to?.ref.file).toBe('a.json');
    expect(pair.from).toBeUndefined();
    expect(notes[0]).toMatch(/b\.json.*already read/);
  });
});

describe('compareVersions', () => {
  it.each([
    ['4.10.0', '4.9.0', 1],
    ['4.10.0-0.nightly-2021-11-02-191632', '4.10.0-0.nightly-2021-11-03-020416', -1],
    ['4.14.0-rc.3', '4.14.0-rc.10', -1],
    ['4.14.1', '4.14.1', 0],
  ])('%s vs %s', (a, b, sign) => {
    expect(Math.sign(compareVersions(a, b))).toBe(sign);
  });
});
