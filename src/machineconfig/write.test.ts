import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MachineConfig } from '../model/objects.js';
import { decodeDataUrl } from './dataurl.js';
import { diffMachineConfigs } from './diff.js';
import { type IgnitionDraft, ignitionJson, textDataUrl } from './write.js';

const mc = (name: string, draft: IgnitionDraft): MachineConfig => ({
  kind: 'MachineConfig',
  metadata: { name },
  spec: { config: ignitionJson(draft) },
});

describe('the Ignition writer', () => {
  it('writes what the reader decodes back, for any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), (text) => {
        expect(Buffer.from(decodeDataUrl(textDataUrl(text)).bytes).toString('utf8')).toBe(text);
      }),
      { numRuns: 300 },
    );
  });

  it('writes configs whose diff names exactly what differs', () => {
    const base: IgnitionDraft = {
      files: [{ path: '/etc/a.conf', mode: 420, contents: 'a=1\n' }],
      units: [
        { name: 'kubelet.service', enabled: true, contents: '[Service]\nExecStart=/bin/true\n' },
        { name: 'crio.service', dropins: [{ name: '10-x.conf', contents: '[Service]\n' }] },
        { name: 'zincati.service', mask: true },
      ],
      sshKeys: ['ssh-ed25519 AAAA one'],
    };
    const same = diffMachineConfigs(mc('a', base), mc('b', base));
    expect(same.identical).toBe(true);
    const changed = diffMachineConfigs(
      mc('a', base),
      mc('b', { ...base, files: [{ path: '/etc/a.conf', mode: 420, contents: 'a=2\n' }] }),
    );
    expect(changed.changes.map((c) => `${c.part}:${c.name}:${c.change}`)).toEqual([
      'files:/etc/a.conf:modified',
    ]);
  });

  it('leaves empty sections out, as the templates do', () => {
    expect(ignitionJson({ files: [], units: [] })).toEqual({ ignition: { version: '3.2.0' } });
  });
});
