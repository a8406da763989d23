import { describe, expect, it } from 'vitest';
import {
  loadCatalogue,
  matchCatalogue,
  parseCatalogueEntry,
  signatureCatalogue,
} from '../../src/signatures/index.js';

const facts = (o: Record<string, string>) => new Map(Object.entries(o));

describe('signature catalogue (signatures/*.json)', () => {
  it('loads the three shipped signatures in match order, with bug and fix', () => {
    const c = loadCatalogue();
    expect(c.map((e) => e.signature.id)).toEqual([
      'level-despite-release-image-version',
      'bug-1999556',
      'bug-1955929',
    ]);
    const race = c.find((e) => e.signature.id === 'bug-1999556');
    expect(race?.label).toBe('pause-image-only race');
    expect(race?.bug).toBe('https://bugzilla.redhat.com/show_bug.cgi?id=1999556');
    expect(race?.fix).toBe('https://github.com/openshift/machine-config-operator/pull/2918');
    expect(c.find((e) => e.signature.id === 'bug-1955929')?.bug).toContain('1955929');
  });

  it.each([
    // The truth table of the matcher that lived in explain/ before the catalogue.
    [{ releaseImageVersion: 'present' }, 'level-despite-release-image-version'],
    [{ releaseImageVersion: 'absent', controllerVersion: 'same', osImageURL: 'same' }, 'bug-1999556'],
    [
      {
        releaseImageVersion: 'absent',
        controllerVersion: 'unknown',
        osImageURL: 'same',
        'release.machine-config-operator': 'same',
        'release.os': 'same',
      },
      'bug-1999556',
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
    [{ releaseImageVersion: 'absent', controllerVersion: 'same', osImageURL: 'changed' }, 'bug-1955929'],
    [{ releaseImageVersion: 'absent', controllerVersion: 'changed', osImageURL: 'changed' }, undefined],
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
});
