/**
 * Release payloads from real data (CVO payload folders, the MCO's and CVO's image-references, the
 * release controller's 380-tag ImageStreams) and `atlevel release diff|info` end to end.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ComponentIndex } from '../../src/release/components.js';
import { diffReleases } from '../../src/release/diff.js';
import { loadReleasePayload } from '../../src/sources/index.js';
import { inProcessCli } from '../helpers/cli.js';
import { describeFixtures, fixture, projectRoot } from '../helpers/fixtures.js';

const F = join(projectRoot, 'test/fixtures/machineconfig');
const FROM = join(F, 'image-references-4.10.0-0.nightly-2021-11-02-191632.json');
const TO = join(F, 'image-references-4.10.0-0.nightly-2021-11-03-020416.json');

const cli = inProcessCli('release');
const { dir, run } = cli;

describe('atlevel release: the bug-2019850 releases', () => {
  it('release diff: pod changed, nodes roll, the bug-1999556 warning', async () => {
    const { code, out } = await run('release', 'diff', FROM, TO);
    expect(code).toBe(1);
    const lines = out.split('\n');
    expect(lines[2]).toBe('components: 1 changed, 0 added, 0 removed, 8 unchanged');
    expect(lines).toContain('~ pod');
    expect(lines).toContain(
      '    - quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:ef6684475a8fc4eb898dc5170dbf883dad2c2883b924cb3d86a4f3b2cb746639',
    );
    expect(lines).toContain('rendered configs will change: every pool rolls its nodes (drain and reboot)');
    expect(lines).toContain('machine-config-operator: image unchanged; OS image: unchanged');
    // Wrapped to the width (200 columns in a pipe), continuation lines indented.
    expect(lines.every((l) => l.length <= 200 || !l.trim().includes(' '))).toBe(true);
    expect(out.replace(/\n {2}/g, ' ')).toMatch(
      /warning: rendered MachineConfigs will change \(pod\) .*\(before MCO PR #2918, bug 1999556\)/,
    );
  });

  it('release diff -o json', async () => {
    const { out } = await run('release', 'diff', FROM, TO, '-o', 'json');
    const d = JSON.parse(out);
    expect(d).toMatchObject({
      schemaVersion: 1,
      kind: 'ReleaseDiff',
      from: { version: '4.10.0-0.nightly-2021-11-02-191632', components: 9 },
      to: { version: '4.10.0-0.nightly-2021-11-03-020416' },
      nodesWillRoll: 'yes',
      levelTooEarly: 'yes',
      osImageChanged: false,
      machineConfigOperator: { imageChanged: false, commitChanged: false },
    });
    expect(d.changed).toHaveLength(1);
    expect(d.changed[0].after.commit).toBe('e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3');
  });

  it('release info --image-for and --component-for', async () => {
    expect(await run('release', 'info', TO, '--image-for', 'pod')).toEqual({
      code: 0,
      out: 'quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:0adaefcf3675fa153e7d3917c7a24563e9da81922cac6c3eed3edd4b57bf98bb\n',
    });
    const by = await run(
      'release',
      'info',
      FROM,
      '--component-for',
      'sha256:ef6684475a8fc4eb898dc5170dbf883dad2c2883b924cb3d86a4f3b2cb746639',
    );
    expect(by.out).toBe(
      'pod quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:ef6684475a8fc4eb898dc5170dbf883dad2c2883b924cb3d86a4f3b2cb746639\n',
    );
    // The new pod image is not in the old release.
    const missing = await run(
      'release',
      'info',
      FROM,
      '--component-for',
      'sha256:0adaefcf3675fa153e7d3917c7a24563e9da81922cac6c3eed3edd4b57bf98bb',
    );
    expect(missing.code).toBe(1);
    expect(cli.stderr()).toContain('no component with image "sha256:0adaefcf');
  });

  it('a release file of another kind is bad input', async () => {
    const file = join(dir, 'cv.yaml');
    writeFileSync(file, 'kind: ClusterVersion\nmetadata:\n  name: version\n');
    expect((await run('release', 'diff', file, TO)).code).toBe(2);
    expect(cli.stderr()).toContain(`${file}: not a release payload: found kind ClusterVersion`);
  });
});

describeFixtures('release payloads from real data', () => {
  const cvo = (name: string) => fixture('openshift__cluster-version-operator/pkg/cvo/testdata', name);
  const rc = (name: string) =>
    fixture('openshift__release-controller/pr-740/cmd/release-controller/testdata', name);

  it('CVO payload folders: version from release-metadata, from the root or release-manifests', async () => {
    const p = await loadReleasePayload(cvo('payloadtest'));
    expect(p).toMatchObject({ version: '1.0.0-abc', components: [] });
    expect(p.ref.file).toBe(join(cvo('payloadtest'), 'release-manifests', 'image-references'));
    expect((await loadReleasePayload(cvo('payloadtestarch/release-manifests'))).version).toBe('1.0.0-abc');
    await expect(loadReleasePayload(cvo('manifests'))).rejects.toThrow(/folder has no image-references/);
  });

  it("the MCO's own image-references: the components its configs embed", async () => {
    const p = await loadReleasePayload(
      fixture('openshift__machine-config-operator/install/image-references'),
    );
    expect(p.components.map((c) => c.name)).toEqual([
      'machine-config-operator',
      'pod',
      'oauth-proxy',
      'kube-rbac-proxy',
      'rhel-coreos',
      'rhel-coreos-extensions',
      'rhel-coreos-10',
      'rhel-coreos-10-extensions',
      'keepalived-ipfailover',
      'coredns',
      'haproxy-router',
      'baremetal-runtimecfg',
      'docker-registry',
    ]);
    expect(p.components[1]).toEqual({
      name: 'pod',
      pullSpec: 'placeholder.url.oc.will.replace.this.org/placeholdernamespace:pod',
    });
  });

  it('a file without a version is named by its file, never as release "unknown"', async () => {
    const mco = fixture('openshift__machine-config-operator/install/image-references');
    const info = await run('release', 'info', mco);
    expect(info.out.split('\n')[0]).toBe(`${mco} (no version)`);
    expect(info.out).not.toMatch(/unknown/);
    const miss = await run('release', 'info', mco, '--image-for', 'nope');
    expect(miss.code).toBe(1);
    expect(cli.stderr()).toContain(`no image tag "nope" in ${mco} (it carries no version)`);
    const d = await run('release', 'diff', rc('4.23.json'), mco);
    expect(d.out.split('\n')[1]).toBe(`to   ${mco} (no version, 13 components)`);
    expect(d.out).not.toMatch(/unknown/);
    // JSON schema 1 keeps its documented `unknown`.
    expect(JSON.parse((await run('release', 'info', mco, '-o', 'json')).out).version).toBe('unknown');
  });

  it('the 4.23 ImageStream: 380 tags indexed by digest', async () => {
    const p = await loadReleasePayload(rc('4.23.json'));
    expect(p.version).toBe('4.23');
    expect(p.components).toHaveLength(380);
    const index = new ComponentIndex([p]);
    expect(index.componentOf('sha256:c23ee20ee5edff23c9f0e08317bfdb0139fec51059481a6fab2faa3090942edb')).toBe(
      'pod',
    );
    expect(index.imageFor('pod')[0]?.component.pullSpec).toBe(
      '4.22@sha256:c23ee20ee5edff23c9f0e08317bfdb0139fec51059481a6fab2faa3090942edb',
    );
  });

  it('a 4.23 update that changes only pod and the MCO image: nodes roll; without commits, possibly too early', async () => {
    const doc = JSON.parse(readFileSync(rc('4.23.json'), 'utf8'));
    for (const tag of doc.spec.tags) {
      if (tag.name === 'pod') tag.from.name = `4.23@sha256:${'a'.repeat(64)}`;
      if (tag.name === 'machine-config-operator') tag.from.name = `4.23@sha256:${'b'.repeat(64)}`;
    }
    doc.metadata.name = '4.23-next';
    const next = join(dir, '4.23-next.json');
    writeFileSync(next, JSON.stringify(doc));
    const d = diffReleases(await loadReleasePayload(rc('4.23.json')), await loadReleasePayload(next));
    expect(d.changed.map((c) => c.name)).toEqual(['machine-config-operator', 'pod']);
    expect(d.unchanged).toBe(378);
    expect(d.nodesWillRoll).toBe('yes');
    // No commit annotations in this ImageStream: a new MCO image may or may not be a new commit.
    expect(d.levelTooEarly).toBe('possible');
    const { code, out } = await run('release', 'diff', rc('4.23.json'), next, '-o', 'json');
    expect(code).toBe(1);
    expect(JSON.parse(out).reachingConfigs.map((r: { name: string }) => r.name)).toEqual([
      'machine-config-operator',
      'pod',
    ]);
  });

  it('two payloads with no components: cannot tell, never "nodes will not roll"', async () => {
    const { code, out } = await run('release', 'diff', cvo('payloadtest'), cvo('payloadtest-2'));
    expect(code).toBe(4);
    expect(out).not.toContain('nodes will not roll');
    expect(out).toContain('cannot tell whether rendered configs change, so whether nodes roll');
    expect(out).toContain('OS image: cannot tell');
    expect(out).toContain('neither payload lists any component: nothing to compare');
  });

  it('a digest against a tag cannot be compared: no "changed", no rollout prediction', async () => {
    const { code, out } = await run('release', 'diff', rc('4.23.json'), rc('4.23-quay-references.json'));
    expect(code).toBe(4);
    expect(out).toContain('components: 0 changed, 0 added, 0 removed, 0 unchanged, 380 cannot be compared');
    expect(out).not.toContain('every pool rolls');
    expect(out).not.toMatch(/\(changed\)/);
    expect(out).toContain('machine-config-operator: image cannot be compared; OS image: cannot tell');
    const d = JSON.parse(
      (await run('release', 'diff', rc('4.23.json'), rc('4.23-quay-references.json'), '-o', 'json')).out,
    );
    expect(d).toMatchObject({
      nodesWillRoll: 'cannot-tell',
      levelTooEarly: 'cannot-tell',
      osImage: 'cannot-tell',
    });
    expect(d.incomparable.find((x: { name: string }) => x.name === 'pod')?.why).toBe('tag-vs-digest');
  });

  it('two different tags cannot be compared either; the same tags are unchanged', async () => {
    // The release controller's quay references are all tags; a copy with two tags renamed.
    const doc = JSON.parse(readFileSync(rc('4.23-quay-references.json'), 'utf8'));
    for (const tag of doc.spec.tags) {
      if (tag.name === 'pod' || tag.name === 'cli')
        tag.from.name = tag.from.name.replace('ocp_4.23_', 'ocp_4.23-next_');
    }
    doc.metadata.name = '4.23-next-quay-references';
    const next = join(dir, '4.23-next-quay-references.json');
    writeFileSync(next, JSON.stringify(doc));

    const { code, out } = await run('release', 'diff', rc('4.23-quay-references.json'), next);
    expect(code).toBe(4);
    const lines = out.split('\n');
    expect(lines[2]).toBe('components: 0 changed, 0 added, 0 removed, 378 unchanged, 2 cannot be compared');
    expect(lines).toContain('? pod (two different tags)');
    expect(lines).toContain('    quay-proxy.ci.openshift.org/openshift/ci:ocp_4.23-next_pod');
    expect(out).not.toContain('every pool rolls');
    expect(out).toContain('cannot tell whether rendered configs change, so whether nodes roll');
    const d = JSON.parse(
      (await run('release', 'diff', rc('4.23-quay-references.json'), next, '-o', 'json')).out,
    );
    expect(d.changed).toEqual([]);
    expect(d.incomparable.map((x: { name: string; why: string }) => [x.name, x.why])).toEqual([
      ['cli', 'tag-vs-tag'],
      ['pod', 'tag-vs-tag'],
    ]);
    expect(d).toMatchObject({ nodesWillRoll: 'cannot-tell', levelTooEarly: 'cannot-tell' });

    const same = await run(
      'release',
      'diff',
      rc('4.23-quay-references.json'),
      rc('4.23-quay-references.json'),
    );
    expect(same.code).toBe(0);
    expect(same.out.split('\n')[2]).toBe('components: 0 changed, 0 added, 0 removed, 380 unchanged');
  });

  it('--image-for on an ImageStreamImage tag prints what it references and says it is not a pull spec', async () => {
    const { code, out } = await run('release', 'info', rc('4.23.json'), '--image-for', 'pod');
    expect(code).toBe(0);
    expect(out).toBe(
      'ImageStreamImage ocp/4.22@sha256:c23ee20ee5edff23c9f0e08317bfdb0139fec51059481a6fab2faa3090942edb\n',
    );
    expect(cli.stderr()).toContain(
      'pod is an ImageStreamImage reference (an image of another image stream), not a pull spec',
    );
  });

  it('two unrelated operator image-references: no rollout predicted from placeholders', async () => {
    const { out } = await run(
      'release',
      'diff',
      fixture('openshift__cluster-version-operator/install/image-references'),
      fixture('openshift__machine-config-operator/install/image-references'),
      '--width',
      '1000',
    );
    expect(out).not.toContain('every pool rolls');
    expect(out).toContain('cannot tell whether rendered configs change');
    expect(out).toContain('OS image: cannot tell');
    expect(out).toContain('the two payloads share no component: they are not two releases of one stream');
    expect(out).toMatch(/carries no version/);
  });

  it('a release-controller API response is not a payload', async () => {
    await expect(
      loadReleasePayload(fixture('openshift__sippy/pkg/dataloader/releaseloader/OCPCRT-74-pr-test.json')),
    ).rejects.toThrow(/not a release payload: found an object with keys name, phase, results/);
  });
});
