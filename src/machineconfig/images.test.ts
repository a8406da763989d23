import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { imageChangesInLines, imagesInLine } from './images.js';

const D1 = 'ef6684475a8fc4eb898dc5170dbf883dad2c2883b924cb3d86a4f3b2cb746639';
const D2 = '0adaefcf3675fa153e7d3917c7a24563e9da81922cac6c3eed3edd4b57bf98bb';

describe('imagesInLine', () => {
  it('finds pull specs by digest, by tag on a registry host, and bare digests, in order', () => {
    expect(
      imagesInLine(
        `      --pod-infra-container-image=quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:${D1} \\`,
      ),
    ).toEqual([`quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:${D1}`]);
    expect(imagesInLine(`pause_image = "registry.ci.openshift.org/ocp/4.10:pod" # was sha256:${D2}`)).toEqual(
      ['registry.ci.openshift.org/ocp/4.10:pod', `sha256:${D2}`],
    );
    expect(imagesInLine(`image: localhost:5000/mirror/pod:v1 and docker://quay.io/x/y@sha256:${D2}`)).toEqual(
      ['localhost:5000/mirror/pod:v1', `quay.io/x/y@sha256:${D2}`],
    );
  });

  it('does not take URLs, paths or host:port for images', () => {
    expect(imagesInLine('--address=https://api-int.example.com:6443/healthz')).toEqual([]);
    expect(imagesInLine('path=/etc/kubernetes/kubelet.conf:ro')).toEqual([]);
    expect(imagesInLine('server api.example.com:6443')).toEqual([]);
    expect(imagesInLine('ExecStart=/usr/bin/podman run --rm -v /etc:/etc:z')).toEqual([]);
  });
});

describe('imageChangesInLines', () => {
  it('pairs the n-th image of a removed line with the n-th of its replacement', () => {
    expect(
      imageChangesInLines([
        {
          before: `a quay.io/x/pod@sha256:${D1} quay.io/x/mco@sha256:${D2}`,
          after: `a quay.io/x/pod@sha256:${D2} quay.io/x/mco@sha256:${D2}`,
        },
        { after: 'image: quay.io/x/new:latest' },
      ]),
    ).toEqual([
      { before: `quay.io/x/pod@sha256:${D1}`, after: `quay.io/x/pod@sha256:${D2}` },
      { after: 'quay.io/x/new:latest' },
    ]);
  });

  it('an image on both sides of a pair is not a change; swapping sides mirrors the result', () => {
    const arbLine = fc
      .array(fc.constantFrom(`q.io/a@sha256:${D1}`, `q.io/a@sha256:${D2}`, 'q.io/b:v1', 'word', '='), {
        maxLength: 4,
      })
      .map((w) => w.join(' '));
    fc.assert(
      fc.property(fc.array(fc.record({ before: arbLine, after: arbLine }), { maxLength: 4 }), (pairs) => {
        const forward = imageChangesInLines(pairs);
        for (const c of forward) expect(c.before).not.toBe(c.after);
        const backward = imageChangesInLines(pairs.map((p) => ({ before: p.after, after: p.before })));
        expect(new Set(backward.map((c) => `${c.after}|${c.before}`))).toEqual(
          new Set(forward.map((c) => `${c.before}|${c.after}`)),
        );
      }),
    );
  });
});
