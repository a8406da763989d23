import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InputError } from '../model/errors.js';
import type { ReleasePayload } from '../model/history.js';
import type { MachineConfig } from '../model/objects.js';
import { encodeDataUrl } from './dataurl.js';
import { diffMachineConfigs } from './diff.js';
import type { ConfigChange } from './types.js';

const url = (text: string) => encodeDataUrl(Buffer.from(text));

function mc(
  name: string,
  spec: Record<string, unknown>,
  config: Record<string, unknown> = {},
): MachineConfig {
  return {
    kind: 'MachineConfig',
    metadata: { name },
    spec: { config: { ignition: { version: '3.2.0' }, ...config }, ...spec },
  };
}

const find = (changes: readonly ConfigChange[], name: string) => changes.find((c) => c.name === name);

describe('diffMachineConfigs: files', () => {
  const base = mc(
    'a',
    {},
    {
      storage: {
        files: [
          { path: '/etc/a.conf', mode: 420, overwrite: true, contents: { source: url('one\ntwo\nthree\n') } },
          { path: '/etc/same.conf', mode: 420, contents: { source: url('same\n') } },
          { path: '/etc/gone.conf', mode: 420, contents: { source: url('bye\n') } },
          {
            path: '/usr/lib/blob.bin',
            mode: 420,
            contents: { source: encodeDataUrl(Buffer.from([0, 1, 2, 3]), { base64: true }) },
          },
        ],
      },
    },
  );
  const next = mc(
    'b',
    {},
    {
      storage: {
        files: [
          {
            path: '/etc/a.conf',
            mode: 384,
            overwrite: true,
            user: { name: 'root' },
            contents: { source: url('one\nTWO\nthree\n') },
          },
          // Same bytes, stored gzip+base64: not a content change, but the encoding is reported.
          {
            path: '/etc/same.conf',
            mode: 420,
            contents: { source: encodeDataUrl(gzipSync('same\n'), { base64: true }), compression: 'gzip' },
          },
          { path: '/etc/new.conf', mode: 420, contents: { source: url('hello\n') } },
          {
            path: '/usr/lib/blob.bin',
            mode: 420,
            contents: { source: encodeDataUrl(Buffer.from([0, 1, 2, 4]), { base64: true }) },
          },
        ],
      },
    },
  );
  const d = diffMachineConfigs(base, next);

  it('reports a text file change with a unified diff, mode and owner', () => {
    const c = find(d.changes, '/etc/a.conf');
    expect(c?.change).toBe('modified');
    expect(c?.attributes).toEqual(['mode 0644 → 0600', 'user unset → root']);
    expect(c?.textDiff).toBe('@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three');
    expect(c?.changedLines).toEqual([{ before: 'two', after: 'TWO' }]);
  });

  it('treats the same bytes under another encoding as the same contents', () => {
    const c = find(d.changes, '/etc/same.conf');
    expect(c?.attributes).toEqual(['compression none → gzip']);
    expect(c?.textDiff).toBeUndefined();
  });

  it('reports binary files by size and sha256', () => {
    const c = find(d.changes, '/usr/lib/blob.bin');
    expect(c?.before).toBe(
      'binary, 4 bytes, sha256 054edec1d0211f624fed0cbca9d4f9400b0e491c43742af2c5b0abebf0c990d8',
    );
    expect(c?.after).toMatch(/^binary, 4 bytes, sha256 [0-9a-f]{64}$/);
    expect(c?.textDiff).toBeUndefined();
  });

  it('reports added and removed files with their contents', () => {
    expect(find(d.changes, '/etc/new.conf')).toMatchObject({
      change: 'added',
      after: '1 line, 6 bytes, mode 0644',
      textDiff: '@@ -0,0 +1 @@\n+hello',
    });
    expect(find(d.changes, '/etc/gone.conf')).toMatchObject({
      change: 'removed',
      before: '1 line, 4 bytes, mode 0644',
    });
  });

  it('sorts changes by part, then path', () => {
    expect(d.changes.map((c) => c.name)).toEqual([
      '/etc/a.conf',
      '/etc/gone.conf',
      '/etc/new.conf',
      '/etc/same.conf',
      '/usr/lib/blob.bin',
    ]);
  });
});

describe('diffMachineConfigs: units, drop-ins, users', () => {
  const a = mc(
    'a',
    {},
    {
      systemd: {
        units: [
          { name: 'kubelet.service', enabled: true, contents: '[Service]\nExecStart=/usr/bin/kubelet\n' },
          {
            name: 'crio.service',
            dropins: [{ name: '10-env.conf', contents: '[Service]\nEnvironment=A=1\n' }],
          },
          { name: 'zincati.service', mask: false },
        ],
      },
      passwd: {
        users: [{ name: 'core', sshAuthorizedKeys: ['ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIA== one@host'] }],
      },
    },
  );
  const b = mc(
    'b',
    {},
    {
      systemd: {
        units: [
          { name: 'kubelet.service', enabled: false, contents: '[Service]\nExecStart=/usr/bin/kubelet\n' },
          {
            name: 'crio.service',
            dropins: [
              { name: '10-env.conf', contents: '[Service]\nEnvironment=A=2\n' },
              { name: '20-new.conf', contents: '[Service]\nNice=-5\n' },
            ],
          },
          { name: 'zincati.service', mask: true },
        ],
      },
      passwd: {
        users: [
          {
            name: 'core',
            sshAuthorizedKeys: [
              'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIA== one@host\nssh-rsa AAAAB3NzaC1yc2E= two@host\n',
            ],
          },
        ],
      },
    },
  );
  const d = diffMachineConfigs(a, b);

  it('reports enabled and mask as attributes, not as content', () => {
    expect(find(d.changes, 'kubelet.service')).toEqual({
      part: 'units',
      name: 'kubelet.service',
      change: 'modified',
      attributes: ['enabled true → false'],
    });
    expect(find(d.changes, 'zincati.service')?.attributes).toEqual(['mask false → true']);
  });

  it('diffs each drop-in by unit and name', () => {
    expect(find(d.changes, 'crio.service/10-env.conf')).toMatchObject({
      part: 'dropins',
      change: 'modified',
      changedLines: [{ before: 'Environment=A=1', after: 'Environment=A=2' }],
    });
    expect(find(d.changes, 'crio.service/20-new.conf')).toMatchObject({ part: 'dropins', change: 'added' });
    expect(find(d.changes, 'crio.service')).toBeUndefined();
  });

  it('counts SSH keys, splitting an entry that holds several', () => {
    const c = find(d.changes, 'core');
    expect(c).toMatchObject({ part: 'passwd', before: '1 SSH key', after: '2 SSH keys' });
    expect(c?.attributes).toEqual([expect.stringMatching(/^SSH key added: ssh-rsa SHA256:\S+ two@host$/)]);
  });
});

describe('diffMachineConfigs: spec fields', () => {
  it('diffs kernel arguments as an ordered multiset, pairing a changed value by key', () => {
    const d = diffMachineConfigs(
      mc('a', { kernelArguments: ['nosmt', 'y=0', 'z=4', 'quiet'] }),
      mc('b', { kernelArguments: ['quiet', 'y=1', 'z=4', 'z=4', 'nosmt'] }),
    );
    expect(d.changes.map((c) => [c.change, c.name, c.before, c.after])).toEqual([
      ['modified', 'y', 'y=0', 'y=1'],
      ['added', 'z=4', undefined, 'z=4'],
      ['modified', '(order)', 'nosmt y=0 z=4 quiet', 'quiet y=1 z=4 z=4 nosmt'],
    ]);
  });

  it('treats MCO defaults as equal: null lists, kernelType "" and default, fips absent and false', () => {
    const d = diffMachineConfigs(
      mc('a', { kernelArguments: null, extensions: null, kernelType: '', osImageURL: '' }),
      mc('b', { kernelArguments: [], extensions: [], kernelType: 'default', fips: false }),
    );
    expect(d.identical).toBe(true);
  });

  it('reports fips, kernelType, extensions and the Ignition version', () => {
    const d = diffMachineConfigs(mc('a', { extensions: ['usbguard'] }), {
      ...mc('b', { fips: true, kernelType: 'realtime', extensions: ['kernel-devel'] }),
      spec: {
        config: { ignition: { version: '3.4.0' } },
        fips: true,
        kernelType: 'realtime',
        extensions: ['kernel-devel'],
      },
    });
    expect(d.changes.map((c) => `${c.part}:${c.name}:${c.change}`)).toEqual([
      'ignitionVersion:ignition.version:modified',
      'kernelType:kernelType:modified',
      'fips:fips:modified',
      'extensions:usbguard:removed',
      'extensions:kernel-devel:added',
    ]);
  });

  it('names the images of an osImageURL change by release component', () => {
    const os = (h: string) => `quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:${h.repeat(64)}`;
    const release = (v: string, h: string): ReleasePayload => ({
      version: v,
      components: [{ name: 'machine-os-content', pullSpec: os(h), digest: `sha256:${h.repeat(64)}` }],
      ref: { file: `${v}.json` },
    });
    const d = diffMachineConfigs(mc('a', { osImageURL: os('1') }), mc('b', { osImageURL: os('2') }), {
      releases: { from: release('4.10.1', '1'), to: release('4.10.2', '2') },
    });
    expect(d.changes).toEqual([
      {
        part: 'osImageURL',
        name: 'osImageURL',
        change: 'modified',
        before: os('1'),
        after: os('2'),
        images: [{ before: os('1'), after: os('2'), component: 'machine-os-content' }],
      },
    ]);
  });

  it('reports sections it does not interpret, canonically', () => {
    const d = diffMachineConfigs(
      mc('a', {}, { storage: { disks: [{ device: '/dev/sdb', wipeTable: true }] }, networkd: {} }),
      mc('b', {}, { storage: { disks: [{ wipeTable: true, device: '/dev/sdc' }] } }),
    );
    expect(d.changes).toEqual([
      {
        part: 'other',
        name: 'config.storage.disks',
        change: 'modified',
        before: '[{"device":"/dev/sdb","wipeTable":true}]',
        after: '[{"device":"/dev/sdc","wipeTable":true}]',
      },
    ]);
  });
});

describe('diffMachineConfigs: Ignition spec 2.x', () => {
  it('reads a 2.2 config (filesystem, enable, append: true, overwrite default) like the 3.x one it means', () => {
    const v2 = mc(
      'v2',
      {},
      {
        ignition: { version: '2.2.0' },
        storage: {
          files: [
            {
              filesystem: 'root',
              path: '/etc/x.conf',
              mode: 420,
              contents: { source: url('x=1\n'), verification: {} },
            },
            { filesystem: 'root', path: '/etc/log.conf', append: true, contents: { source: url('more\n') } },
          ],
        },
        systemd: {
          units: [
            { name: 'docker.service', enable: true, dropins: [{ name: '10-opts.conf', contents: 'A\n' }] },
          ],
        },
      },
    );
    const v3 = mc(
      'v3',
      {},
      {
        ignition: { version: '3.2.0' },
        storage: {
          files: [
            { path: '/etc/x.conf', mode: 420, overwrite: true, contents: { source: url('x=1\n') } },
            { path: '/etc/log.conf', overwrite: true, append: [{ source: url('more\n') }] },
          ],
        },
        systemd: {
          units: [
            { name: 'docker.service', enabled: true, dropins: [{ name: '10-opts.conf', contents: 'A\n' }] },
          ],
        },
      },
    );
    const d = diffMachineConfigs(v2, v3);
    expect(d.changes).toEqual([
      {
        part: 'ignitionVersion',
        name: 'ignition.version',
        change: 'modified',
        before: '2.2.0',
        after: '3.2.0',
      },
    ]);
  });
});

describe('diffMachineConfigs: filters and errors', () => {
  const a = mc(
    'a',
    { kernelArguments: ['a=1'] },
    {
      storage: {
        files: [
          { path: '/etc/crio/crio.conf.d/00-default', contents: { source: url('pause_image = "x"\n') } },
          { path: '/etc/other', contents: { source: url('1\n') } },
        ],
      },
      systemd: {
        units: [
          { name: 'kubelet.service', contents: 'A\n', dropins: [{ name: '10-x.conf', contents: 'x\n' }] },
        ],
      },
    },
  );
  const b = mc(
    'b',
    { kernelArguments: ['a=2'] },
    {
      storage: {
        files: [
          { path: '/etc/crio/crio.conf.d/00-default', contents: { source: url('pause_image = "y"\n') } },
          { path: '/etc/other', contents: { source: url('2\n') } },
        ],
      },
      systemd: {
        units: [
          { name: 'kubelet.service', contents: 'B\n', dropins: [{ name: '10-x.conf', contents: 'y\n' }] },
        ],
      },
    },
  );

  it('keeps only the parts asked for', () => {
    const d = diffMachineConfigs(a, b, { only: ['kernelArguments'] });
    expect(d.changes.map((c) => c.name)).toEqual(['a']);
    expect(d.filter).toEqual({ only: ['kernelArguments'] });
  });

  it('keeps only names matching --path, a drop-in matching through its unit', () => {
    expect(diffMachineConfigs(a, b, { path: '/etc/crio/**' }).changes.map((c) => c.name)).toEqual([
      '/etc/crio/crio.conf.d/00-default',
    ]);
    expect(diffMachineConfigs(a, b, { path: 'kubelet.service' }).changes.map((c) => c.name)).toEqual([
      'kubelet.service',
      'kubelet.service/10-x.conf',
    ]);
    expect(diffMachineConfigs(a, b, { path: '/nothing/*' }).identical).toBe(true);
  });

  it('names the file, object and Ignition path of a malformed data URL', () => {
    const bad = mc(
      'rendered-master-1',
      {},
      {
        storage: {
          files: [
            { path: '/etc/ok', contents: { source: 'data:,ok' } },
            { path: '/etc/bad', contents: { source: 'data:;base64,!!!!' } },
          ],
        },
      },
    );
    const run = () => diffMachineConfigs(a, bad, { refs: { to: { file: 'mcs.json', path: 'items[7]' } } });
    expect(run).toThrow(InputError);
    expect(run).toThrow(
      'mcs.json: MachineConfig rendered-master-1 items[7].spec.config.storage.files[1].contents.source: /etc/bad: malformed data URL: the base64 data has characters or a length base64 cannot have',
    );
  });
});

// Generated configs for the algebraic properties.
const text = fc
  .array(fc.constantFrom('a=1', 'b=2', `image=quay.io/x/y@sha256:${'3'.repeat(64)}`, '', '# c'), {
    maxLength: 6,
  })
  .map((l) => l.join('\n'));
const arbConfig: fc.Arbitrary<MachineConfig> = fc
  .record({
    files: fc.uniqueArray(
      fc.record({
        path: fc.constantFrom('/etc/a', '/etc/b', '/etc/c', '/usr/d'),
        body: text,
        mode: fc.constantFrom(420, 384, 493),
      }),
      { selector: (f) => f.path, maxLength: 4 },
    ),
    units: fc.uniqueArray(
      fc.record({
        name: fc.constantFrom('a.service', 'b.service', 'c.timer'),
        contents: text,
        enabled: fc.option(fc.boolean(), { nil: undefined }),
        dropin: fc.option(text, { nil: undefined }),
      }),
      { selector: (u) => u.name, maxLength: 3 },
    ),
    kargs: fc.array(fc.constantFrom('nosmt', 'y=0', 'y=1', 'z=4', 'quiet'), { maxLength: 5 }),
    extensions: fc.uniqueArray(fc.constantFrom('usbguard', 'kernel-devel', 'sandboxed-containers'), {
      maxLength: 2,
    }),
    fips: fc.boolean(),
    kernelType: fc.constantFrom('default', 'realtime'),
    os: fc.constantFrom(`quay.io/os@sha256:${'1'.repeat(64)}`, `quay.io/os@sha256:${'2'.repeat(64)}`),
    keys: fc.uniqueArray(fc.constantFrom('ssh-ed25519 AAAA one', 'ssh-rsa BBBB two', 'ssh-rsa CCCC three'), {
      maxLength: 3,
    }),
  })
  .map((r) =>
    mc(
      'x',
      {
        kernelArguments: r.kargs,
        extensions: r.extensions,
        fips: r.fips,
        kernelType: r.kernelType,
        osImageURL: r.os,
      },
      {
        storage: {
          files: r.files.map((f) => ({ path: f.path, mode: f.mode, contents: { source: url(f.body) } })),
        },
        systemd: {
          units: r.units.map((u) => ({
            name: u.name,
            contents: u.contents,
            ...(u.enabled !== undefined ? { enabled: u.enabled } : {}),
            ...(u.dropin !== undefined ? { dropins: [{ name: '10-x.conf', contents: u.dropin }] } : {}),
          })),
        },
        passwd: { users: [{ name: 'core', sshAuthorizedKeys: r.keys }] },
      },
    ),
  );

const FLIP = { added: 'removed', removed: 'added', modified: 'modified' } as const;

describe('diffMachineConfigs: properties', () => {
  it('diff(a, a) is identical', () => {
    fc.assert(
      fc.property(arbConfig, (a) => {
        expect(diffMachineConfigs(a, a).changes).toEqual([]);
      }),
    );
  });

  it('diff(b, a) mirrors diff(a, b): added ↔ removed, before ↔ after, same names', () => {
    fc.assert(
      fc.property(arbConfig, arbConfig, (a, b) => {
        const ab = diffMachineConfigs(a, b).changes;
        const ba = diffMachineConfigs(b, a).changes;
        const key = (c: ConfigChange) => `${c.part}\u0000${c.name}`;
        // Kernel-argument pairing and order are direction-sensitive in name only for duplicates; compare as sets.
        const mirrored = ab
          .map((c) => `${key(c)}\u0000${FLIP[c.change]}\u0000${c.after ?? ''}\u0000${c.before ?? ''}`)
          .sort();
        const actual = ba
          .map((c) => `${key(c)}\u0000${c.change}\u0000${c.before ?? ''}\u0000${c.after ?? ''}`)
          .sort();
        expect(actual).toEqual(mirrored);
        expect(ab.length === 0).toBe(diffMachineConfigs(a, b).identical);
      }),
    );
  });
});
