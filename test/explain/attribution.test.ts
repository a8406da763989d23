/**
 * Which source each changed line of a rendered config is attributed to, on the seed case's real data
 * (examples/bug-2019850: the only change the update made is the pause image, release component `pod`)
 * reshaped the way real clusters differ: a day-2 MachineConfig's lines in the same diff, release info
 * missing or partial, one image under two tags, an osImageURL change, compressed file contents and
 * hostile names. A changed line is the release's only when the component's image differs between the
 * two releases and no config the controller did not generate carries the line.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { analyzeHistory } from '../../src/analyze/index.js';
import type { Finding, HistoryParts, MachineConfig, ReleasePayload } from '../../src/model/index.js';
import { renderAnalysisText } from '../../src/report/analyze-text.js';
import { analyzeHtml } from '../../src/report/html/index.js';
import { buildHistory } from '../../src/timeline/build.js';
import { projectRoot } from '../helpers/fixtures.js';
import { loadHistoryParts } from '../helpers/load.js';

const SEED = join(projectRoot, 'examples/bug-2019850');
const DAY2: MachineConfig = JSON.parse(
  readFileSync(join(projectRoot, 'test/fixtures/explain/50-master-dns-check.json'), 'utf8'),
);
const TO = 'rendered-master-08a4fea83290e0724cc703711035136d';
const RULE = 'master-pool-updated-before-cvo-complete';
const POD_B = 'sha256:0adaefcf3675fa153e7d3917c7a24563e9da81922cac6c3eed3edd4b57bf98bb';

const seedParts = loadHistoryParts([SEED]);

/** The seed's parts, deep-copied so that each case reshapes its own. */
async function seed(): Promise<HistoryParts> {
  return structuredClone(await seedParts);
}

type Spec = {
  config: {
    storage: { files: unknown[] };
    systemd: { units: { name: string; contents?: string }[] };
  };
  kernelArguments?: string[] | null;
  osImageURL?: string;
};

function renderedTo(p: HistoryParts): MachineConfig {
  const mc = p.objects.machineConfigs.find((m) => m.object.metadata.name === TO)?.object;
  if (!mc) throw new Error(`${TO} not in the seed`);
  return mc;
}

/**
 * Merge the day-2 config into the new rendered config, the way the render controller does (its file,
 * unit and kernel argument appended), with the file as `encode` writes it; `listed` puts the config
 * among the pool's sources and the inputs, as a gather of that cluster holds it.
 */
function addDay2(
  p: HistoryParts,
  opts: { listed: boolean; encode?: (text: string) => string; mc?: MachineConfig } = { listed: true },
): void {
  const day2 = opts.mc ?? DAY2;
  const spec = renderedTo(p).spec as unknown as Spec;
  const src = day2.spec as unknown as Spec;
  const file = structuredClone(src.config.storage.files[0]) as {
    path: string;
    contents: { source: string; compression?: string };
  };
  if (opts.encode) {
    const text = decodeURIComponent(file.contents.source.slice('data:,'.length));
    file.contents = { source: opts.encode(text), compression: 'gzip' };
  }
  spec.config.storage.files.push(file);
  spec.config.systemd.units.push(structuredClone(src.config.systemd.units[0]!));
  spec.kernelArguments = [...(spec.kernelArguments ?? []), ...(src.kernelArguments ?? [])];
  if (!opts.listed) return;
  p.objects.machineConfigs.push({ object: structuredClone(day2), ref: { file: 'day2/machineconfigs.json' } });
  for (const { object: pool } of p.objects.machineConfigPools) {
    for (const c of [pool.status?.configuration, pool.spec?.configuration]) {
      if (c?.name !== TO) continue;
      c.source = [...(c.source ?? []), { kind: 'MachineConfig', name: day2.metadata.name }];
    }
  }
}

function finding(p: HistoryParts): Finding {
  const f = analyzeHistory(buildHistory(p)).findings.find((x) => x.rule === RULE);
  if (!f) throw new Error(`no ${RULE} finding`);
  return f;
}

function imageStep(f: Finding) {
  return f.explanation?.steps.find((s) => s.title.startsWith('the changed image'));
}

function withoutTag(r: ReleasePayload, name: string): ReleasePayload {
  return { ...r, components: r.components.filter((c) => c.name !== name) };
}

describe('the seed case', () => {
  it('attributes its only changed image to pod, citing both releases', async () => {
    const f = finding(await seed());
    const step = imageStep(f);
    expect(step?.title).toBe('the changed image is the release component pod');
    expect(step?.evidence.map((e) => e.ref?.file.replace(/.*\//, ''))).toEqual([
      'release-to.json',
      'release-from.json',
      'release-to.json',
    ]);
    expect(f.explanation?.signature?.detail).toContain(
      'Here the changed image was the pause image (release component pod).',
    );
  });
});

describe('a day-2 MachineConfig in the same diff as the update', () => {
  it("names the day-2 config for its lines and never a release component, though its image is coredns's", async () => {
    const p = await seed();
    addDay2(p, { listed: true });
    const f = finding(p);
    const diff = f.explanation?.steps.find((s) => s.title.includes('differs from'));
    expect(diff?.title).toContain('in 5 places');
    const carried = diff?.evidence.filter((e) =>
      e.statement.includes('(carried by MachineConfig 50-master-dns-check)'),
    );
    expect(carried?.map((e) => e.statement.split(' (')[0])).toEqual([
      'kernelArguments nosmt added',
      'file /etc/dns-check/check.conf added',
      'unit dns-check.service added',
    ]);
    const step = imageStep(f);
    expect(step?.title).toBe(
      'the changed images are: the release component pod; carried by the MachineConfig 50-master-dns-check, not by the release',
    );
    expect(step?.title).not.toContain('coredns');
    const day2 = step?.evidence.filter((e) => e.object === 'MachineConfig/50-master-dns-check') ?? [];
    expect(day2.map((e) => e.statement)).toEqual([
      expect.stringMatching(
        /^file \/etc\/dns-check\/check.conf, unit dns-check.service: ∅ → sha256:089f588fbe8a… is carried by MachineConfig 50-master-dns-check, which the machine-config controller did not generate: not a release component's change \(the image is coredns's\)$/,
      ),
    ]);
    expect(day2[0]?.ref?.file).toBe('day2/machineconfigs.json');
    // The catalogue's words, and the components the runs store records, name only what the update changed.
    expect(f.explanation?.components).toEqual(['pod']);
    expect(f.explanation?.signature?.detail).toContain(
      'Here the changed image was the pause image (release component pod).',
    );
  });

  it('compares decoded contents: a rendered file gzip+base64, its source percent-encoded', async () => {
    const p = await seed();
    addDay2(p, {
      listed: true,
      encode: (text) => `data:;base64,${gzipSync(Buffer.from(text)).toString('base64')}`,
    });
    const step = imageStep(finding(p));
    expect(step?.title).toContain('carried by the MachineConfig 50-master-dns-check, not by the release');
  });

  it('names no carrier whose content differs from the rendered one (a config edited since the render)', async () => {
    const p = await seed();
    addDay2(p, { listed: true });
    const edited = p.objects.machineConfigs.find((m) => m.object.metadata.name === '50-master-dns-check');
    if (!edited) throw new Error('the day-2 config is not among the inputs');
    const unit = (edited.object.spec as unknown as Spec).config.systemd.units[0]!;
    unit.contents = `${unit.contents ?? ''}# edited later\n`;
    const step = imageStep(finding(p));
    // The file still matches; the edited unit's line is no longer said to be the config's.
    const byUnit = step?.evidence.find((e) => e.statement.includes('unit dns-check.service'));
    expect(byUnit?.statement).not.toContain('carried by');
    expect(byUnit?.statement).toContain(
      'coredns: ∅ → sha256:089f588fbe8a… in unit dns-check.service; its image is the same in both releases',
    );
  });

  it('without the day-2 config in the inputs, says the coredns image is the same in both releases: not the update', async () => {
    const p = await seed();
    addDay2(p, { listed: false });
    const step = imageStep(finding(p));
    expect(step?.title).toBe(
      'the changed images are: the release component pod; coredns, whose image is the same in both releases (the release did not change it)',
    );
    expect(step?.title).not.toMatch(/release components pod, coredns/);
  });
});

describe('a file whose encoding alone changed', () => {
  it('is said to keep its decoded content, not shown as a bare "modified"', async () => {
    const p = await seed();
    const files = (renderedTo(p).spec as unknown as Spec).config.storage.files as {
      path: string;
      contents: { source: string; compression?: string };
    }[];
    const ca = files.find((f) => f.path === '/etc/kubernetes/kubelet-ca.crt');
    if (!ca) throw new Error('no kubelet-ca.crt in the seed');
    const raw = ca.contents.source.startsWith('data:,')
      ? Buffer.from(decodeURIComponent(ca.contents.source.slice('data:,'.length)))
      : Buffer.from(ca.contents.source.slice(ca.contents.source.indexOf(',') + 1), 'base64');
    ca.contents = { source: `data:;base64,${gzipSync(raw).toString('base64')}`, compression: 'gzip' };
    const f = finding(p);
    const said = f.explanation?.steps.flatMap((s) => s.evidence.map((e) => e.statement)) ?? [];
    expect(said).toContain(
      'file /etc/kubernetes/kubelet-ca.crt modified: compression none → gzip (the decoded content is the same)',
    );
    // It holds no image: the pause image is still the only one the update changed.
    expect(imageStep(f)?.title).toBe('the changed image is the release component pod');
  });
});

describe('a diff that is all a day-2 config', () => {
  it('matches no release race: neither bug-1999556 nor any image of the release is named', async () => {
    const p = await seed();
    const from = p.objects.machineConfigs.find(
      (m) => m.object.metadata.name === 'rendered-master-5d1c05288d1145e269c312e9826eddc6',
    );
    if (!from) throw new Error('no old master config in the seed');
    renderedTo(p).spec = structuredClone(from.object.spec);
    addDay2(p, { listed: true });
    const f = finding(p);
    expect(imageStep(f)?.title).toBe(
      'the changed image is carried by the MachineConfig 50-master-dns-check, not by the release',
    );
    expect(f.explanation?.components).toEqual([]);
    expect(f.explanation?.signature).toBeUndefined();
  });
});

describe('release info the inputs do not hold', () => {
  it('a partial target payload (no pod tag): the new image is not known, the old one was pod', async () => {
    const p = await seed();
    p.releases = { ...p.releases, to: withoutTag(p.releases.to!, 'pod') };
    const f = finding(p);
    const step = imageStep(f);
    expect(step?.title).toMatch(
      /^the changed image is in neither release \(release 4\.10\.0-0\.nightly-2021-11-02-191632, release 4\.10\.0-0\.nightly-2021-11-03-020416\)$/,
    );
    expect(step?.evidence[0]?.statement).toMatch(
      /^component not known: file \/etc\/crio\/crio.conf.d\/00-default, unit kubelet.service: .*; the image it replaced was pod in release 4\.10\.0-0\.nightly-2021-11-02-191632$/,
    );
    // It cites the release that named the old image, not the one that lacks it.
    expect(step?.evidence[0]?.ref?.file).toMatch(/release-from\.json$/);
    expect(step?.evidence.map((e) => e.object)).not.toContain('ReleaseComponent/pod');
    const images = f.explanation?.configDiff?.changes.flatMap((c) => c.images ?? []) ?? [];
    expect(images.map((i) => [i.component, i.replaced])).toEqual([
      [undefined, 'pod'],
      [undefined, 'pod'],
    ]);
    const text = renderAnalysisText(analyzeHistory(buildHistory(p)), { colour: false });
    expect(text).toContain(
      '      image not named by a release read (it replaced pod): sha256:ef6684475a8f… → sha256:0adaefcf3675…',
    );
    expect(text).not.toContain('image pod:');
    expect(f.explanation?.signature?.detail).toContain(
      'Here the changed image was 1 image that no release read names.',
    );
  });

  it('only the release updated from: the new image is not known, and --release-to is what would name it', async () => {
    const p = await seed();
    p.releases = { ...(p.releases.from ? { from: p.releases.from } : {}) };
    const step = imageStep(finding(p));
    expect(step?.title).toBe(
      'the changed image is not in release 4.10.0-0.nightly-2021-11-02-191632, the only release read (give --release-to to name its component)',
    );
  });

  it('only the release updated to: the new image is pod, named by that release', async () => {
    const p = await seed();
    p.releases = { ...(p.releases.to ? { to: p.releases.to } : {}) };
    const step = imageStep(finding(p));
    expect(step?.title).toBe('the changed image is the release component pod');
    expect(step?.evidence.map((e) => e.ref?.file.replace(/.*\//, ''))).toEqual([
      'release-to.json',
      'release-to.json',
    ]);
  });
});

describe('multi-arch payloads and images by tag', () => {
  it("a manifest-list digest in the config, a per-arch digest in the payload: the new image's component is not known", async () => {
    const p = await seed();
    const perArch = `sha256:${'a'.repeat(64)}`;
    const to = p.releases.to!;
    p.releases = {
      ...p.releases,
      to: {
        ...to,
        components: to.components.map((c) =>
          c.name === 'pod' ? { ...c, pullSpec: c.pullSpec.replace(POD_B, perArch), digest: perArch } : c,
        ),
      },
    };
    const step = imageStep(finding(p));
    expect(step?.title).toMatch(/^the changed image is in neither release/);
    expect(step?.evidence[0]?.statement).toContain(
      'the image it replaced was pod in release 4.10.0-0.nightly-2021-11-02-191632',
    );
  });

  it('an image by tag that no payload lists is not known, never matched by its repository', async () => {
    const p = await seed();
    const tagged = structuredClone(DAY2);
    const spec = tagged.spec as unknown as {
      config: { storage: { files: { contents: { source: string } }[] } };
    };
    const file = spec.config.storage.files[0]!;
    file.contents.source = `data:,${encodeURIComponent('image = "quay.io/openshift-release-dev/ocp-v4.0-art-dev:coredns"\n')}`;
    addDay2(p, { listed: false, mc: tagged });
    const step = imageStep(finding(p));
    const byTag = step?.evidence.find(
      (e) => e.value === 'quay.io/openshift-release-dev/ocp-v4.0-art-dev:coredns',
    );
    expect(byTag?.statement).toMatch(
      /^component not known: file \/etc\/dns-check\/check.conf: ∅ → quay.io\/openshift-release-dev\/ocp-v4.0-art-dev:coredns; the new image is in neither release/,
    );
  });
});

describe("a new image that is the older release's", () => {
  it("is not said to be the update's change of that component", async () => {
    const p = await seed();
    // The new config holds the old release's cli image where the old one held none.
    const cli = p.releases.from!.components.find((c) => c.name === 'cli')!.pullSpec;
    const tagged = structuredClone(DAY2);
    const spec = tagged.spec as unknown as {
      config: { storage: { files: { contents: { source: string } }[] } };
    };
    spec.config.storage.files[0]!.contents.source = `data:,${encodeURIComponent(`image = "${cli}"\n`)}`;
    addDay2(p, { listed: false, mc: tagged });
    const step = imageStep(finding(p));
    expect(step?.title).toContain("cli's image of the older release, not the target release's");
    expect(step?.title).not.toMatch(/release components? [^;]*cli/);
    expect(step?.evidence.find((e) => e.value === cli)?.statement).toContain(
      "the new image is cli's in the older release 4.10.0-0.nightly-2021-11-02-191632, not the target release's",
    );
  });
});

describe('one image under two tags', () => {
  it('names both tags and says they are one image', async () => {
    const p = await seed();
    const alias = (r: ReleasePayload): ReleasePayload => {
      const pod = r.components.filter((c) => c.name === 'pod');
      return { ...r, components: [...r.components, ...pod.map((c) => ({ ...c, name: 'pause-alias' }))] };
    };
    p.releases = { ...p.releases, from: alias(p.releases.from!), to: alias(p.releases.to!) };
    const step = imageStep(finding(p));
    expect(step?.title).toBe(
      'the changed image is the release component pause-alias and pod (one image under 2 tags)',
    );
    const cited = step?.evidence.filter((e) => e.statement.startsWith('release ')).map((e) => e.field);
    expect(cited).toEqual([
      'references.spec.tags[pause-alias].from.name',
      'references.spec.tags[pause-alias].from.name',
      'references.spec.tags[pod].from.name',
      'references.spec.tags[pod].from.name',
    ]);
  });
});

describe('osImageURL', () => {
  it('an OS image the target release changed is named by its tag, machine-os-content', async () => {
    const p = await seed();
    const os = `quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:${'7'.repeat(64)}`;
    (renderedTo(p).spec as unknown as Spec).osImageURL = os;
    const to = p.releases.to;
    p.releases = {
      ...p.releases,
      ...(to
        ? {
            to: {
              ...to,
              components: to.components.map((c) =>
                c.name === 'machine-os-content'
                  ? { ...c, pullSpec: os, digest: `sha256:${'7'.repeat(64)}` }
                  : c,
              ),
            },
          }
        : {}),
    };
    const f = finding(p);
    expect(imageStep(f)?.title).toBe('the changed images are the release components machine-os-content, pod');
    expect(f.explanation?.configDiff?.changes[0]).toMatchObject({
      part: 'osImageURL',
      images: [{ after: os, component: 'machine-os-content' }],
    });
  });
});

describe('the OS tag is the one osImageURL names', () => {
  it('4.12-shaped payloads list machine-os-content and rhel-coreos-8: the signature compares rhel-coreos-8', async () => {
    const p = await seed();
    const img = (d: string) => `quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:${d.repeat(64)}`;
    const withOs = (r: ReleasePayload, d: string): ReleasePayload => ({
      ...r,
      components: [
        ...r.components,
        { name: 'rhel-coreos-8', pullSpec: img(d), digest: `sha256:${d.repeat(64)}` },
      ],
    });
    p.releases = { ...p.releases, from: withOs(p.releases.from!, '8'), to: withOs(p.releases.to!, '9') };
    const fromConfig = p.objects.machineConfigs.find(
      (m) => m.object.metadata.name === 'rendered-master-5d1c05288d1145e269c312e9826eddc6',
    );
    (fromConfig?.object.spec as unknown as Spec).osImageURL = img('8');
    (renderedTo(p).spec as unknown as Spec).osImageURL = img('9');
    const f = finding(p);
    expect(imageStep(f)?.title).toBe('the changed images are the release components rhel-coreos-8, pod');
    const said = f.explanation?.steps.flatMap((s) => s.evidence.map((e) => e.statement)) ?? [];
    expect(said).toContain('rhel-coreos-8 changed between the releases');
    // machine-os-content is in both payloads, unchanged, but it is not the pool's OS image.
    expect(said.filter((x) => x.startsWith('machine-os-content'))).toEqual([]);
  });
});

describe('hostile names from a day-2 config', () => {
  it('reach neither the terminal nor the HTML raw', async () => {
    const p = await seed();
    const hostile = structuredClone(DAY2);
    hostile.metadata.name = `50-master-\u001b]8;;http://x\u0007<script>x</script>`;
    const spec = hostile.spec as unknown as { config: { storage: { files: { path: string }[] } } };
    spec.config.storage.files[0]!.path = `/etc/\u001b[2J${'a'.repeat(3000)}<img src=x>`;
    addDay2(p, { listed: true, mc: hostile });
    const history = buildHistory(p);
    const result = analyzeHistory(history);
    const text = renderAnalysisText(result, { colour: false });
    expect(text).toContain('carried by MachineConfig 50-master-');
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
    const html = analyzeHtml({ result, history, inputs: [SEED] }, undefined);
    expect(html).not.toContain('<script>x</script>');
    expect(html).not.toContain('<img src=x>');
    expect(html).not.toContain('\u001b');
  });
});

describe('the seed keeps its image', () => {
  it(`still differs only in the pause image (${POD_B.slice(0, 19)}…)`, async () => {
    const f = finding(await seed());
    const images = f.explanation?.configDiff?.changes.flatMap((c) => c.images ?? []) ?? [];
    expect(images.map((i) => [i.component, i.after?.slice(-71)])).toEqual([
      ['pod', POD_B],
      ['pod', POD_B],
    ]);
  });
});
