import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeHistory } from '../../src/analyze/index.js';
import {
  changedImagesWords,
  describeSignature,
  loadCatalogue,
  matchCatalogue,
  parseCatalogueEntry,
  signatureCatalogue,
} from '../../src/signatures/index.js';
import { loadHistoryParts } from '../../src/sources/index.js';
import { buildHistory } from '../../src/timeline/index.js';

const facts = (o: Record<string, string>) => new Map(Object.entries(o));

describe('signature catalogue (signatures/*.json)', () => {
  it('loads the shipped signatures in match order, with bug and fix', () => {
    const c = loadCatalogue();
    expect(c.map((e) => e.signature.id)).toEqual([
      'same-version-no-operator-image',
      'level-despite-release-image-version',
      'bug-1999556',
      'bug-1955929',
      'operand-early-level',
      'ocpbugs-77922',
      'nodepool-early-level',
      'ocpbugs-92013',
      'nodepool-stuck',
      'controlplane-early-completed',
    ]);
    const race = c.find((e) => e.signature.id === 'bug-1999556');
    // True of every finding it matches: the pause image is only one of the images templates embed.
    expect(race?.label).toBe('embedded-image-only race');
    expect(race?.bug).toBe('https://bugzilla.redhat.com/show_bug.cgi?id=1999556');
    expect(race?.fix).toBe('https://github.com/openshift/machine-config-operator/pull/2918');
    expect(c.find((e) => e.signature.id === 'bug-1955929')?.bug).toContain('1955929');
  });

  it.each([
    // The truth table of the matcher that lived in explain/ before the catalogue.
    [{ releaseImageVersion: 'present' }, 'level-despite-release-image-version'],
    [
      { releaseImageVersion: 'absent', controllerVersion: 'same', osImageURL: 'same', day2Only: 'no' },
      'bug-1999556',
    ],
    [
      {
        releaseImageVersion: 'absent',
        controllerVersion: 'unknown',
        osImageURL: 'same',
        'release.machine-config-operator': 'same',
        'release.os': 'same',
        day2Only: 'no',
      },
      'bug-1999556',
    ],
    // A diff a day-2 MachineConfig alone made is no release race (docs/domain.md 3.2.1).
    [
      { releaseImageVersion: 'absent', controllerVersion: 'same', osImageURL: 'same', day2Only: 'yes' },
      undefined,
    ],
    [
      { releaseImageVersion: 'absent', controllerVersion: 'same', osImageURL: 'changed', day2Only: 'yes' },
      undefined,
    ],
    [
      {
        releaseImageVersion: 'absent',
        controllerVersion: 'same',
        osImageURL: 'same',
        'release.machine-config-operator': 'changed',
      },
      undefined,
    ],
    [
      {
        releaseImageVersion: 'absent',
        controllerVersion: 'same',
        osImageURL: 'same',
        'release.os': 'changed',
      },
      undefined,
    ],
    [
      { releaseImageVersion: 'absent', controllerVersion: 'same', osImageURL: 'changed', day2Only: 'no' },
      'bug-1955929',
    ],
    [{ releaseImageVersion: 'absent', controllerVersion: 'changed', osImageURL: 'changed' }, undefined],
    // An operand finding has no rendered configs: only its rule says which way of failing it is.
    [{ rule: 'operator-level-before-operands', operandKind: 'DaemonSet' }, 'operand-early-level'],
    [{ rule: 'operator-level-before-required-pool-target' }, undefined],
  ])('facts %j → %s', (f, id) => {
    expect(matchCatalogue(signatureCatalogue(), facts(f))?.signature.id).toBe(id);
  });

  it('rejects a malformed entry naming the file and the field', () => {
    expect(() => parseCatalogueEntry('x.json', '{"id":"Bad Id"}')).toThrow(/x\.json: invalid signature: id/);
    expect(() => parseCatalogueEntry('y.json', '{')).toThrow(/y\.json: not JSON/);
    expect(() =>
      parseCatalogueEntry(
        'z.json',
        JSON.stringify({
          id: 'z',
          label: 'z',
          order: 1,
          title: 't',
          detail: 'd',
          bug: null,
          fix: null,
          references: [],
          match: { fact: 'osImageURL' },
        }),
      ),
    ).toThrow(/z\.json: invalid signature: match/);
  });

  it('refuses a placeholder it does not know, naming the file and the field', () => {
    const entry = {
      id: 'z',
      label: 'z',
      order: 1,
      title: 't',
      detail: 'here {changedImage}',
      bug: null,
      fix: null,
      references: [],
      match: { fact: 'osImageURL', is: ['same'] },
    };
    expect(() => parseCatalogueEntry('z.json', JSON.stringify(entry))).toThrow(
      'z.json: invalid signature: detail: unknown placeholder {changedImage}',
    );
  });
});

describe('a signature describes the component that actually changed (issue 37)', () => {
  it('names the changed images in words, the pause image by its common name', () => {
    expect(changedImagesWords({ components: ['pod'], unnamed: 0 })).toBe(
      'Here the changed image was the pause image (release component pod)',
    );
    expect(changedImagesWords({ components: ['baremetal-runtimecfg'], unnamed: 0 })).toBe(
      'Here the changed image was baremetal-runtimecfg',
    );
    expect(changedImagesWords({ components: ['baremetal-runtimecfg', 'haproxy-router'], unnamed: 1 })).toBe(
      'Here the changed images were baremetal-runtimecfg, haproxy-router and 1 image that no release read names',
    );
    expect(changedImagesWords({ components: [], unnamed: 2 })).toBe(
      'Here the changed images were 2 images that no release read names',
    );
    expect(changedImagesWords(undefined)).toBe(
      'Which image changed here, atlevel could not tell from the inputs',
    );
    const race = signatureCatalogue().find((e) => e.signature.id === 'bug-1999556');
    if (!race) throw new Error('no bug-1999556');
    const s = describeSignature(race, { components: ['baremetal-runtimecfg'], unnamed: 0 });
    expect(s.detail).toContain('Here the changed image was baremetal-runtimecfg.');
    expect(s.detail).not.toMatch(/pause|\{/);
    // The catalogue entry itself is left as it is, for the next finding.
    expect(race.signature.detail).toContain('{changedImages}');
  });

  it('bug-2019850 with the changed image named baremetal-runtimecfg: the finding says so, never "pause image"', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'atlevel-signature-'));
    try {
      const run = join(tmp, 'run');
      cpSync('examples/bug-2019850', run, { recursive: true });
      // The payloads' pod and baremetal-runtimecfg tags swapped: the image that changed in the
      // rendered configs is now the release's baremetal-runtimecfg, as on a bare-metal cluster.
      for (const side of ['from', 'to']) {
        const file = join(run, `release/release-${side}.json`);
        const swapped = readFileSync(file, 'utf8')
          .replaceAll('"name": "baremetal-runtimecfg",', '"name": "\u0000",')
          .replaceAll('"name": "pod",', '"name": "baremetal-runtimecfg",')
          .replaceAll('"name": "\u0000",', '"name": "pod",');
        writeFileSync(file, swapped);
      }
      const result = analyzeHistory(buildHistory(await loadHistoryParts([run], { now: Date.now() })));
      const signed = result.findings.filter((f) => f.explanation?.signature?.id === 'bug-1999556');
      expect(signed.length).toBeGreaterThan(0);
      for (const f of signed) {
        expect(f.explanation?.signature?.detail).toContain(
          'Here the changed image was baremetal-runtimecfg.',
        );
        expect(f.explanation?.signature?.detail).not.toContain('pause');
      }
      // And on the example itself, the pause image.
      const pause = analyzeHistory(
        buildHistory(await loadHistoryParts(['examples/bug-2019850'], { now: Date.now() })),
      ).findings.find((f) => f.explanation?.signature?.id === 'bug-1999556');
      expect(pause?.explanation?.signature?.detail).toContain(
        'Here the changed image was the pause image (release component pod).',
      );
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
