/**
 * Generators of hostile inputs, one per class of the adversarial audit (issue 10): archives with
 * foreign or broken compression, decompression and alias bombs, deep and cyclic trees, names carrying
 * terminal escapes or bytes that are not UTF-8, special files, and data: URL bombs. Each writes into a
 * folder the caller owns (a temp folder) and returns the path it made.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, createWriteStream, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { constants, createGzip, gzipSync } from 'node:zlib';

export const ESC_NAME = 'x\u001b]0;PWNED\u0007\u001b[31mred\u001b[0m\u009b2J';

/** A MachineConfig document with `config` as its Ignition config. */
export function machineConfig(name: string, config: unknown, extra: Record<string, unknown> = {}): object {
  return {
    apiVersion: 'machineconfiguration.openshift.io/v1',
    kind: 'MachineConfig',
    metadata: { name },
    spec: { config, ...extra },
  };
}

export function writeJson(dir: string, name: string, value: unknown): string {
  const p = join(dir, name);
  writeFileSync(p, JSON.stringify(value));
  return p;
}

export function writeText(dir: string, name: string, text: string | Buffer): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

/** A plain 3.2.0 MachineConfig, the other side of most diffs. */
export function plainConfig(dir: string, name = 'plain.json'): string {
  return writeJson(dir, name, machineConfig('plain', { ignition: { version: '3.2.0' } }));
}

/** JSON nested `depth` arrays deep, as text (JSON.stringify itself would recurse). */
export function deepArrayJson(depth: number): string {
  return `${'['.repeat(depth)}${']'.repeat(depth)}`;
}

/** A MachineConfig whose spec.config holds an array nested `depth` deep. */
export function deepConfig(dir: string, depth: number, name = 'deep.json'): string {
  const text = `{"apiVersion":"machineconfiguration.openshift.io/v1","kind":"MachineConfig","metadata":{"name":"deep"},"spec":{"config":{"ignition":{"version":"3.2.0"},"x":${deepArrayJson(depth)}}}}`;
  return writeText(dir, name, text);
}

/** YAML "billion laughs": `levels` anchors, each `width` aliases of the one before (width^levels leaves). */
export function laughsYaml(levels = 9, width = 10): string {
  const lines = [`l0: &l0 [${Array(width).fill('lol').join(', ')}]`];
  for (let i = 1; i < levels; i++)
    lines.push(
      `l${i}: &l${i} [${Array(width)
        .fill(`*l${i - 1}`)
        .join(', ')}]`,
    );
  return lines.join('\n');
}

/** A MachineConfig YAML whose config is a billion laughs. */
export function laughsMachineConfig(dir: string, name = 'laughs.yaml'): string {
  const body = laughsYaml()
    .split('\n')
    .map((l) => `      ${l}`)
    .join('\n');
  const text = `apiVersion: machineconfiguration.openshift.io/v1
kind: MachineConfig
metadata:
  name: laughs
spec:
  config:
    ignition:
      version: 3.2.0
    bomb:
${body}
`;
  return writeText(dir, name, text);
}

/** A MachineConfig YAML whose config refers to itself through an alias. */
export function cyclicMachineConfig(dir: string, name = 'cycle.yaml'): string {
  return writeText(
    dir,
    name,
    `apiVersion: machineconfiguration.openshift.io/v1
kind: MachineConfig
metadata:
  name: cycle
spec:
  config: &c
    ignition:
      version: 3.2.0
    self: *c
    storage:
      files: &f
        - path: /etc/loop
          loop: *f
`,
  );
}

/** A MachineConfig with `n` gzip data: URL files of `mib` MiB of zeros each (small on disk). */
export function dataUrlBombConfig(dir: string, n: number, mib: number, name = 'dataurl.json'): string {
  const gz = gzipSync(Buffer.alloc(mib * 1024 * 1024), { level: 9 });
  const source = `data:;base64,${gz.toString('base64')}`;
  const files = Array.from({ length: n }, (_, i) => ({
    path: `/etc/bomb-${i}`,
    contents: { source, compression: 'gzip' },
  }));
  return writeJson(
    dir,
    name,
    machineConfig('dataurl', { ignition: { version: '3.2.0' }, storage: { files } }),
  );
}

/**
 * Two MachineConfigs of `files` files of `lines` lines each, every line different between the sides,
 * gzip data: URLs (so the files are small): each text diff runs to its per-file time cap.
 */
export function slowDiffConfigs(dir: string, files: number, lines: number): [string, string] {
  const side = (tag: string, name: string) => {
    const list = Array.from({ length: files }, (_, f) => {
      const text = `${tag}${f} differing line\n`.repeat(lines);
      const gz = gzipSync(Buffer.from(text), { level: 9 });
      return {
        path: `/etc/slow/${f}.conf`,
        contents: { source: `data:;base64,${gz.toString('base64')}`, compression: 'gzip' },
      };
    });
    return writeJson(
      dir,
      name,
      machineConfig(tag, { ignition: { version: '3.2.0' }, storage: { files: list } }),
    );
  };
  return [side('a', 'slow-a.json'), side('b', 'slow-b.json')];
}

/** A `.json.gz` that inflates to `mib` MiB of `[{},{},…]`, written streaming (never held whole). */
export async function objectsBombGz(path: string, mib: number): Promise<string> {
  const gz = createGzip({ level: constants.Z_BEST_COMPRESSION });
  const out = createWriteStream(path);
  gz.pipe(out);
  const chunk = Buffer.from('{},'.repeat((1024 * 1024) / 3));
  gz.write('{"kind":"List","apiVersion":"v1","items":[');
  const n = Math.ceil((mib * 1024 * 1024) / chunk.length);
  for (let i = 0; i < n; i++) {
    if (!gz.write(chunk)) await new Promise<void>((r) => gz.once('drain', () => r()));
  }
  gz.end('{}]}');
  await new Promise<void>((r) => out.on('close', () => r()));
  return path;
}

/** A file whose first bytes are the zstd frame magic, then random bytes, named `.tar`. */
export function zstdMagicTar(dir: string): string {
  return writeText(dir, 'z.tar', Buffer.concat([Buffer.from([0x28, 0xb5, 0x2f, 0xfd]), randomBytes(2000)]));
}

/** A real zstd-compressed tar of a tiny folder, renamed `.tar` (needs the zstd tool; undefined without). */
export function realZstdTar(dir: string): string | undefined {
  const src = join(dir, 'zsrc');
  mkdirSync(join(src, 'run'), { recursive: true });
  writeFileSync(join(src, 'run', 'README'), 'hello\n');
  const out = join(dir, 'real-zst.tar');
  try {
    execFileSync('tar', ['--zstd', '-cf', out, '-C', src, 'run'], { stdio: 'ignore' });
    return out;
  } catch {
    return undefined;
  }
}

/** An xz-compressed tar named `.tar`, and one of random bytes after the xz magic. */
export function xzTars(dir: string): string[] {
  const src = join(dir, 'xsrc');
  mkdirSync(join(src, 'run'), { recursive: true });
  writeFileSync(join(src, 'run', 'README'), 'hello\n');
  const out: string[] = [];
  try {
    const real = join(dir, 'real-xz.tar');
    execFileSync('tar', ['--xz', '-cf', real, '-C', src, 'run'], { stdio: 'ignore' });
    out.push(real);
  } catch {
    // no xz: the garbage case below still runs
  }
  out.push(
    writeText(
      dir,
      'garbage-xz.tar',
      Buffer.concat([Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]), randomBytes(3000)]),
    ),
  );
  return out;
}

/** A valid .tar.gz of a CI-run-looking folder, followed by garbage bytes. */
export function tarGzTrailingGarbage(dir: string, runDir: string): string {
  const out = join(dir, 'trailing.tar.gz');
  execFileSync('tar', ['-czf', out, '-C', runDir, '.'], { stdio: 'ignore' });
  appendFileSync(out, randomBytes(4096));
  return out;
}

/**
 * A ClusterVersion that completed 4.10.1 at 03:28:27; `fromInstall` adds the 4.10.0 install before
 * it, so the history holds one update.
 */
export function clusterVersion(fromInstall: boolean): Record<string, unknown> {
  const history = [
    {
      state: 'Completed',
      version: '4.10.1',
      startedTime: '2021-11-03T02:50:00Z',
      completionTime: '2021-11-03T03:28:27Z',
    },
  ];
  if (fromInstall)
    history.push({
      state: 'Completed',
      version: '4.10.0',
      startedTime: '2021-11-02T02:00:00Z',
      completionTime: '2021-11-02T02:40:00Z',
    });
  return {
    apiVersion: 'config.openshift.io/v1',
    kind: 'ClusterVersion',
    metadata: { name: 'version' },
    spec: { clusterID: 'x' },
    status: { desired: { version: '4.10.1' }, history },
  };
}

/** The smallest CI-run folder the CI layout claims: a clusterversion List and a build log. */
export function miniRun(dir: string, name = 'run'): string {
  const root = join(dir, name);
  const ga = join(root, 'artifacts', 'e2e', 'gather-extra', 'artifacts');
  mkdirSync(ga, { recursive: true });
  writeFileSync(
    join(ga, 'clusterversion.json'),
    JSON.stringify({
      kind: 'List',
      apiVersion: 'v1',
      items: [clusterVersion(true)],
    }),
  );
  writeFileSync(join(root, 'build-log.txt'), 'Nov 03 03:23:03.719 I some/thing reason/Test message\n');
  return root;
}

/** A tar with one entry whose name carries terminal escapes (made with tar's own header writer). */
export function escapeNameTar(dir: string): string {
  const src = join(dir, 'escsrc');
  const inner = join(src, ESC_NAME);
  mkdirSync(inner, { recursive: true });
  writeFileSync(join(inner, 'clusterversion.json'), '{ not json');
  const out = join(dir, 'esc.tar');
  execFileSync('tar', ['-cf', out, '-C', src, ESC_NAME], { stdio: 'ignore' });
  return out;
}

/** A file name of bytes that are not UTF-8 (written through a Buffer path). */
export function nonUtf8Name(folder: string): void {
  const name = Buffer.concat([
    Buffer.from(`${folder}/README-`),
    Buffer.from([0xff, 0xfe, 0x80]),
    Buffer.from('.txt'),
  ]);
  writeFileSync(name, 'not needed by any reader\n');
}

/**
 * A tar of `runDir` cut after its last complete entry (the two zero blocks of the end-of-archive marker
 * and the padding dropped), plain and as a whole gzip stream: nothing is broken but the missing end.
 * And the whole tar gzipped, its stream cut before the 8-byte trailer (CRC-32 and size).
 */
export function tarsCutAtEntryBoundary(
  dir: string,
  runDir: string,
): { tar: string; tgz: string; tgzNoTrailer: string } {
  const whole = join(dir, 'boundary-whole.tar');
  execFileSync('tar', ['-cf', whole, '-C', runDir, '.'], { stdio: 'ignore' });
  const bytes = readFileSync(whole);
  // The entries are text, so the last non-zero byte is in the last entry's data.
  let last = bytes.length - 1;
  while (last > 0 && bytes[last] === 0) last--;
  const cut = bytes.subarray(0, Math.ceil((last + 1) / 512) * 512);
  return {
    tar: writeText(dir, 'boundary.tar', cut),
    tgz: writeText(dir, 'boundary.tar.gz', gzipSync(cut)),
    tgzNoTrailer: writeText(dir, 'no-trailer.tar.gz', gzipSync(bytes).subarray(0, -8)),
  };
}
