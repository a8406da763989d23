import fc from 'fast-check';
import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { InputError } from '../model/errors.js';
import { releaseName } from './names.js';
import { parseReleaseMetadata, parseReleasePayload } from './parse.js';

const POD =
  'quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:ef6684475a8fc4eb898dc5170dbf883dad2c2883b924cb3d86a4f3b2cb746639';
const MCO =
  'quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:1111111111111111111111111111111111111111111111111111111111111111';

const imageStream = (name: string | undefined, tags: unknown[]) => ({
  kind: 'ImageStream',
  apiVersion: 'image.openshift.io/v1',
  ...(name ? { metadata: { name } } : {}),
  spec: { lookupPolicy: { local: false }, tags },
});

const tag = (name: string, pullSpec: string, commit?: string) => ({
  name,
  from: { kind: 'DockerImage', name: pullSpec },
  ...(commit
    ? {
        annotations: {
          'io.openshift.build.commit.id': commit,
          'io.openshift.build.source-location': `https://github.com/openshift/${name}`,
        },
      }
    : {}),
});

describe('parseReleasePayload', () => {
  it('reads `oc adm release info -o json` output, pinning the image by the resolved digest', () => {
    const info = {
      image: 'registry.ci.openshift.org/ocp/release:4.10.0-0.nightly-2021-11-02-191632',
      digest: 'sha256:9f9a1d4d3f5c1c0e4e7d8b2a6f3e5c7d9b1a3c5e7f9b1d3f5a7c9e1b3d5f7a9c',
      contentDigest: 'sha256:9f9a1d4d3f5c1c0e4e7d8b2a6f3e5c7d9b1a3c5e7f9b1d3f5a7c9e1b3d5f7a9c',
      config: { architecture: 'amd64', os: 'linux' },
      metadata: {
        kind: 'cincinnati-metadata-v0',
        version: '4.10.0-0.nightly-2021-11-02-191632',
        previous: [],
      },
      references: imageStream('4.10.0-0.nightly-2021-11-02-191632', [
        tag('pod', POD, 'abc123'),
        tag('machine-config-operator', MCO),
      ]),
      displayVersions: {
        'machine-os': { Version: '410.84.202111021717-0', DisplayName: 'Red Hat Enterprise Linux CoreOS' },
      },
    };
    const p = parseReleasePayload(JSON.stringify(info), 'info.json');
    expect(p.version).toBe('4.10.0-0.nightly-2021-11-02-191632');
    expect(p.image).toBe(
      'registry.ci.openshift.org/ocp/release@sha256:9f9a1d4d3f5c1c0e4e7d8b2a6f3e5c7d9b1a3c5e7f9b1d3f5a7c9e1b3d5f7a9c',
    );
    expect(p.components).toEqual([
      {
        name: 'pod',
        pullSpec: POD,
        digest: 'sha256:ef6684475a8fc4eb898dc5170dbf883dad2c2883b924cb3d86a4f3b2cb746639',
        commit: 'abc123',
        sourceLocation: 'https://github.com/openshift/pod',
      },
      { name: 'machine-config-operator', pullSpec: MCO, digest: `sha256:${'1'.repeat(64)}` },
    ]);
    expect(p.ref).toEqual({ file: 'info.json' });
  });

  it('reads a bare image-references ImageStream in YAML', () => {
    const text = yaml.dump(imageStream('4.9.0', [tag('pod', POD)]));
    const p = parseReleasePayload(text, 'image-references');
    expect(p).toMatchObject({ version: '4.9.0', components: [{ name: 'pod', pullSpec: POD }] });
  });

  it('accepts an operator image-references without a name, with no version', () => {
    const p = parseReleasePayload(JSON.stringify(imageStream(undefined, [])), 'x');
    expect(p.version).toBeUndefined();
    // Prose names it by its file, never as a release called "unknown".
    expect(releaseName({ version: p.version, file: 'x' })).toBe('the release in x (it carries no version)');
  });

  it('keeps the first of two tags with one name, and skips tags without an image', () => {
    const p = parseReleasePayload(
      JSON.stringify(imageStream('1', [tag('pod', POD), tag('pod', MCO), { name: 'empty', from: null }])),
      'x',
    );
    expect(p.components.map((c) => [c.name, c.pullSpec])).toEqual([['pod', POD]]);
  });

  it('refuses other kinds, saying what it found', () => {
    const run = (doc: unknown) => () => parseReleasePayload(JSON.stringify(doc), 'f.json');
    expect(run({ kind: 'ClusterVersion', metadata: { name: 'version' } })).toThrow(
      'f.json: not a release payload: found kind ClusterVersion (expected `oc adm release info -o json` output or an image-references ImageStream)',
    );
    expect(run([1, 2])).toThrow('found a list');
    expect(run({ references: { kind: 'List' } })).toThrow('references is kind List, expected an ImageStream');
    expect(() => parseReleasePayload('key: [unclosed', 'bad.yaml')).toThrow(/^bad\.yaml: not JSON or YAML/);
  });

  it('refuses a tag without a name, naming where it is', () => {
    expect(() =>
      parseReleasePayload(JSON.stringify(imageStream('1', [{ from: { name: POD } }])), 'x'),
    ).toThrow('x: spec.tags[0] has no name');
  });

  it('parses what it is given, whatever the tags, and never throws anything but InputError', () => {
    const arbTag = fc.record({
      name: fc.string({ minLength: 1, maxLength: 20 }),
      from: fc.record({ kind: fc.constant('DockerImage'), name: fc.string({ maxLength: 80 }) }),
    });
    fc.assert(
      fc.property(fc.array(arbTag, { maxLength: 20 }), fc.boolean(), (tags, asYaml) => {
        const doc = imageStream('4.10.0', tags);
        const text = asYaml ? yaml.dump(doc) : JSON.stringify(doc);
        const p = parseReleasePayload(text, 'x');
        const names = new Set(tags.filter((t) => t.from.name !== '').map((t) => t.name));
        expect(new Set(p.components.map((c) => c.name))).toEqual(names);
      }),
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        try {
          parseReleasePayload(text, 'x');
        } catch (err) {
          expect(err).toBeInstanceOf(InputError);
        }
      }),
    );
  });
});

describe('parseReleaseMetadata', () => {
  it('reads the version of cincinnati-metadata-v0', () => {
    expect(
      parseReleaseMetadata('{"kind":"cincinnati-metadata-v0","version":"4.10.3","previous":[]}', 'm'),
    ).toEqual({
      version: '4.10.3',
    });
    expect(() => parseReleaseMetadata('{"kind":"other"}', 'm')).toThrow(
      'm: not release-metadata: found kind other',
    );
  });
});
