/**
 * Inputs that are wrong: each must give one InputError that names the file and the problem, and
 * never hang or crash.
 */
import { execFileSync } from 'node:child_process';
import { chmod, copyFile, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import * as tar from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Budget } from '../../src/model/budget.js';
import { InputError } from '../../src/model/errors.js';
import type { LoadOptions } from '../../src/sources/index.js';
import { loadHistoryParts } from '../helpers/load.js';
import { skipNote } from '../helpers/skip.js';

const CI = 'test/fixtures/sources/ci-run';
const GA = `${CI}/artifacts/e2e-aws-upgrade/gather-extra/artifacts`;
let tmp: string;
let n = 0;

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'atlevel-bad-'));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

/** A fresh folder holding `files` (name → content). */
async function folder(files: Record<string, string | Buffer>): Promise<string> {
  const dir = join(tmp, `case-${n++}`);
  await mkdir(dir, { recursive: true });
  for (const [name, content] of Object.entries(files)) {
    await mkdir(join(dir, name, '..'), { recursive: true });
    await writeFile(join(dir, name), content);
  }
  return dir;
}

async function inputError(paths: string[], opts: Partial<LoadOptions> = {}): Promise<InputError> {
  try {
    await loadHistoryParts(paths, opts);
  } catch (err) {
    if (err instanceof InputError) return err;
    throw err;
  }
  throw new Error(`expected an InputError for ${paths.join(' ')}`);
}

const list = (items: unknown[]) => JSON.stringify({ apiVersion: 'v1', kind: 'List', items });

describe('paths', () => {
  it('a missing path', async () => {
    const err = await inputError([join(tmp, 'nope')]);
    expect(err.message).toBe(`${join(tmp, 'nope')}: no such file or directory`);
  });

  it('an empty folder', async () => {
    const dir = await folder({});
    const err = await inputError([dir]);
    expect(err.file).toBe(dir);
    expect(err.problem).toBe('no atlevel inputs found');
    expect(err.hint).toBe(
      'expected gather-extra JSON Lists, build-log.txt, e2e-*.json intervals, a must-gather, oc get YAML/JSON, or a .tar(.gz) of these',
    );
  });

  it('a folder of YAML with no kind atlevel reads', async () => {
    const dir = await folder({ 'secret.yaml': 'kind: Secret\nmetadata:\n  name: s\n' });
    const err = await inputError([dir]);
    expect(err.problem).toBe('no atlevel inputs found (oc get files): read 1 file, found only Secret');
  });

  it('YAML that is not an object, in words', async () => {
    const dir = await folder({ 'hello.yaml': 'hello\n' });
    const err = await inputError([dir]);
    expect(err.problem).toMatch(/found only text that is not a YAML or JSON object$/);
    expect(err.problem).not.toContain('(not an object)');
  });

  it('a file that is no input', async () => {
    const dir = await folder({ 'photo.png': 'x' });
    const err = await inputError([join(dir, 'photo.png')]);
    expect(err.message).toMatch(/photo\.png: not an atlevel input/);
  });

  it('a symlink loop', async () => {
    const dir = await folder({ 'nodes.json': list([]) });
    await symlink(dir, join(dir, 'again'));
    const err = await inputError([dir]);
    expect(err.file).toBe(join(dir, 'again'));
    expect(err.problem).toMatch(/symlink loop/);
  });

  it('a symlink to itself', async () => {
    const dir = await folder({ 'nodes.json': list([]) });
    await symlink(join(dir, 'self'), join(dir, 'self'));
    const err = await inputError([dir]);
    expect(err.message).toMatch(/self: symlink loop/);
  });

  it('a FIFO in a folder is skipped, not read (no hang)', async () => {
    const dir = await folder({ 'nodes.json': list([]) });
    execFileSync('mkfifo', [join(dir, 'pipe.json')]);
    const parts = await loadHistoryParts([dir]);
    expect(parts.notes.some((note) => note.includes('pipe.json (not a regular file)'))).toBe(true);
    const err = await inputError([join(dir, 'pipe.json')]);
    expect(err.problem).toBe('not a regular file or folder');
  });

  it.skipIf(process.getuid?.() === 0)(
    `an unreadable folder${skipNote(process.getuid?.() === 0 ? 'run as root, who reads any folder' : undefined)}`,
    async () => {
      const dir = await folder({ 'sub/nodes.json': list([]) });
      await chmod(join(dir, 'sub'), 0o000);
      try {
        const err = await inputError([dir]);
        expect(err.message).toBe(`${join(dir, 'sub')}: permission denied`);
      } finally {
        await chmod(join(dir, 'sub'), 0o755);
      }
    },
  );
});

describe('broken files with known names', () => {
  it('truncated JSON', async () => {
    const text = await readFile(`${GA}/machineconfigpools.json`, 'utf8');
    const dir = await folder({ 'machineconfigpools.json': text.slice(0, 1000) });
    const err = await inputError([dir]);
    expect(err.message).toBe(
      `${dir}/machineconfigpools.json: invalid JSON: Unexpected end of JSON input at position 1000`,
    );
  });

  it('a List of the wrong kind', async () => {
    const dir = await folder({ 'machineconfigpools.json': list([{ kind: 'Pod', metadata: { name: 'p' } }]) });
    const err = await inputError([dir]);
    expect(err.message).toBe(
      `${dir}/machineconfigpools.json: items[0]: found kind Pod where MachineConfigPool was expected`,
    );
  });

  it('a malformed object', async () => {
    const pools = [
      { kind: 'MachineConfigPool', metadata: { name: 'worker' } },
      { kind: 'MachineConfigPool', metadata: { name: 'master' }, status: { conditions: 'Updated' } },
    ];
    const dir = await folder({ 'machineconfigpools.json': list(pools) });
    const err = await inputError([dir]);
    expect(err.message).toBe(
      `${dir}/machineconfigpools.json: items[1] (MachineConfigPool master): status.conditions: expected array`,
    );
  });

  it('an object without a name', async () => {
    const dir = await folder({ 'nodes.json': list([{ kind: 'Node', metadata: {} }]) });
    const err = await inputError([dir]);
    expect(err.problem).toBe('items[0] (Node ?): metadata.name: missing (expected string)');
  });

  it('a known file that is not a List', async () => {
    const dir = await folder({ 'clusterversion.json': '[1, 2]' });
    const err = await inputError([dir]);
    expect(err.problem).toBe('expected a List of ClusterVersion, found a list');
  });

  it('an oc examples file of the wrong kind', async () => {
    const dir = await folder({
      'case-cv.yaml': 'kind: ClusterVersion\nmetadata:\n  name: version\n',
      'case-mcp.yaml': 'kind: Node\nmetadata:\n  name: n1\n',
    });
    const err = await inputError([join(dir, 'case')]);
    expect(err.message).toBe(
      `${dir}/case-mcp.yaml: found kind Node where MachineConfigPool (or a List of them) was expected`,
    );
  });

  it('a bad interval item', async () => {
    const items = [
      { level: 'Info', locator: 'node/a', message: 'x', from: '2021-11-03T03:00:00Z', to: null },
      { level: 'Info', locator: 'node/a', message: 'x', from: 'yesterday', to: null },
    ];
    const dir = await folder({ 'e2e-events_20211103-021533.json': JSON.stringify({ items }) });
    const err = await inputError([dir]);
    expect(err.message).toBe(
      `${dir}/e2e-events_20211103-021533.json: items[1]: from: expected an RFC 3339 time`,
    );
  });

  it('invalid YAML in a must-gather', async () => {
    const dir = await folder({
      'mg/cluster-scoped-resources/core/nodes/n1.yaml': 'kind: Node\nmetadata: [oops\n',
    });
    const err = await inputError([dir]);
    expect(err.file).toBe(`${dir}/mg/cluster-scoped-resources/core/nodes/n1.yaml`);
    expect(err.problem).toMatch(/^invalid YAML: .* at line \d+ column \d+$/);
  });

  it('binary garbage under a known name', async () => {
    const dir = await folder({ 'nodes.json': Buffer.from([0x7b, 0x00, 0xff, 0xfe, 0x01, 0x02]) });
    const err = await inputError([dir]);
    expect(err.message).toBe(`${dir}/nodes.json: binary data, not a text file`);
  });

  it('a .gz that is not gzip', async () => {
    const dir = await folder({ 'events.json.gz': list([]) });
    const err = await inputError([dir]);
    expect(err.message).toBe(`${dir}/events.json.gz: not a gzip file`);
  });

  it('corrupt gzip data', async () => {
    const gz = gzipSync(Buffer.from(list([])));
    const dir = await folder({ 'events.json.gz': gz.subarray(0, gz.length - 12) });
    const err = await inputError([dir]);
    expect(err.message).toMatch(new RegExp(`^${dir}/events\\.json\\.gz: corrupt gzip data: `));
  });

  it('a decompression bomb, stopped at the cap', async () => {
    const bomb = gzipSync(Buffer.alloc(8 * 1024 * 1024, 0x20));
    const dir = await folder({ 'nodes.json.gz': bomb, 'build-log.txt.gz': bomb });
    const err = await inputError([join(dir, 'nodes.json.gz')], { maxFileBytes: 1024 * 1024 });
    expect(err.message).toMatch(/nodes\.json\.gz: decompressed size exceeds 1 MiB/);
    const log = await inputError([join(dir, 'build-log.txt.gz')], { maxFileBytes: 1024 * 1024 });
    expect(log.message).toMatch(/build-log\.txt\.gz: decompressed size exceeds 1 MiB/);
  });

  it('a file over the size cap', async () => {
    const dir = await folder({ 'nodes.json': list([{ kind: 'Node', metadata: { name: 'x'.repeat(300) } }]) });
    const err = await inputError([dir], { maxFileBytes: 100 });
    expect(err.message).toMatch(/nodes\.json: size exceeds 100 bytes/);
  });

  it('an incidental file that does not parse is skipped with a note, not an error', async () => {
    const dir = await folder({ 'build-log.txt': 'nothing\n', 'prowjob.json': '{"broken' });
    const parts = await loadHistoryParts([dir]);
    expect(parts.notes).toContain(
      `${dir}/prowjob.json: skipped, invalid JSON: Unexpected end of JSON input at position 8`,
    );
    expect(parts.notes).toContain('read 1 other YAML/JSON file that held nothing atlevel uses');
    expect(parts.inputs.map((i) => i.path)).toEqual([`${dir}/build-log.txt`]);
  });

  it('a release file given explicitly that is not a release', async () => {
    const err = await inputError([CI], { releaseTo: `${GA}/nodes.json` });
    expect(err.file).toBe(`${GA}/nodes.json`);
    expect(err.problem).toMatch(/not a release payload: found kind List/);
  });
});

describe('tree limits on Lists read as they stream', () => {
  const deep = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
  const mc = (x: string) =>
    `{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"machineconfiguration.openshift.io/v1","kind":"MachineConfig","metadata":{"name":"rendered-master-x","creationTimestamp":"2021-11-03T03:00:00Z"},"spec":{"x":${x}}}]}`;

  it('an item nested deeper than --max-tree-depth, small enough to be parsed in a batch', async () => {
    // 20,000 levels in 40 KB: enough to overflow the stack of JSON.stringify, and of any walk after it.
    const dir = await folder({ 'machineconfigs.json': mc(deep(20_000)) });
    const err = await inputError([join(dir, 'machineconfigs.json')]);
    expect(err.file).toBe(join(dir, 'machineconfigs.json'));
    expect(err.problem).toMatch(/over the nesting depth limit of 512/);
  });

  it('a lowered --max-tree-depth and --max-tree-nodes apply to gather-extra Lists too', async () => {
    const events = `${GA}/events.json`;
    const depth = await inputError([events], { budget: new Budget({ treeDepth: 3 }) });
    expect(depth.problem).toMatch(/over the nesting depth limit of 3/);
    const nodes = await inputError([events], { budget: new Budget({ treeNodes: 10 }) });
    expect(nodes.problem).toMatch(/over the parsed nodes per document limit of 10/);
    // The defaults let the same file through.
    await loadHistoryParts([events]);
  });
});

describe('archives', () => {
  it('random bytes named .tar.gz', async () => {
    const dir = await folder({ 'x.tar.gz': Buffer.from('hello, not an archive') });
    const err = await inputError([join(dir, 'x.tar.gz')]);
    expect(err.message).toBe(`${dir}/x.tar.gz: not a gzip file`);
  });

  it('random bytes named .tar', async () => {
    const dir = await folder({ 'x.tar': Buffer.alloc(2048, 7) });
    const err = await inputError([join(dir, 'x.tar')]);
    expect(err.file).toBe(`${dir}/x.tar`);
    expect(err.problem).toMatch(/not a (valid )?tar archive/);
  });

  it('a truncated tar.gz', async () => {
    const archive = join(tmp, 'whole.tar.gz');
    await tar.c({ gzip: true, file: archive, cwd: 'test/fixtures/sources', portable: true }, ['ci-run']);
    const bytes = await readFile(archive);
    const dir = await folder({ 'cut.tar.gz': bytes.subarray(0, Math.floor(bytes.length / 2)) });
    const err = await inputError([join(dir, 'cut.tar.gz')]);
    expect(err.file.startsWith(`${dir}/cut.tar.gz`)).toBe(true);
  });

  describe('cut at an entry boundary (no end-of-archive marker)', () => {
    /** A tar of the CI-run fixture, and where its last entry ends (before the zero blocks). */
    async function wholeTar(): Promise<{ bytes: Buffer; end: number; entries: string[] }> {
      const archive = join(tmp, `boundary-${n++}.tar`);
      await tar.c({ file: archive, cwd: 'test/fixtures/sources', portable: true }, ['ci-run']);
      const bytes = await readFile(archive);
      const entries: string[] = [];
      await tar.t({ file: archive, onReadEntry: (e) => void entries.push(e.path) });
      // The entries are text, so the archive's last non-zero byte is in the last entry's data.
      let last = bytes.length - 1;
      while (bytes[last] === 0) last--;
      return { bytes, end: Math.ceil((last + 1) / 512) * 512, entries };
    }

    it('a .tar that ends after a complete entry', async () => {
      const { bytes, end, entries } = await wholeTar();
      const dir = await folder({ 'cut.tar': bytes.subarray(0, end) });
      const err = await inputError([join(dir, 'cut.tar')]);
      expect(err.message).toBe(
        `${dir}/cut.tar: truncated archive (no end-of-archive marker after entry ${entries.length}, ${entries.at(-1)})`,
      );
    });

    it('a .tar that ends after one of the two zero blocks of the marker', async () => {
      const { bytes, end, entries } = await wholeTar();
      const dir = await folder({ 'half.tar': bytes.subarray(0, end + 512) });
      const err = await inputError([join(dir, 'half.tar')]);
      expect(err.message).toBe(
        `${dir}/half.tar: truncated archive (only half the end-of-archive marker after entry ${entries.length}, ${entries.at(-1)})`,
      );
    });

    it('a whole gzip stream of a .tar cut at an entry boundary', async () => {
      const { bytes, end, entries } = await wholeTar();
      const dir = await folder({ 'cut.tar.gz': gzipSync(bytes.subarray(0, end)) });
      const err = await inputError([join(dir, 'cut.tar.gz')]);
      expect(err.problem).toBe(
        `truncated archive (no end-of-archive marker after entry ${entries.length}, ${entries.at(-1)})`,
      );
    });

    it('every cut at a block boundary short of the marker is refused, whole entries or not', async () => {
      const { bytes, end } = await wholeTar();
      const dir = await folder({});
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 1, max: end / 512 + 1 }), fc.boolean(), async (blocks, gz) => {
          const cut = bytes.subarray(0, blocks * 512);
          const file = join(dir, `cut-${blocks}.tar${gz ? '.gz' : ''}`);
          await writeFile(file, gz ? gzipSync(cut) : cut);
          const err = await inputError([file]);
          expect(err.file).toBe(file);
          expect(err.problem).toMatch(/^(truncated archive|not a tar archive) \(/);
        }),
        { numRuns: 25 },
      );
    });

    it('the whole archive, and the same with bytes after the marker, are read', async () => {
      const { bytes, end } = await wholeTar();
      const dir = await folder({ 'whole.tar': bytes, 'marker-only.tar': bytes.subarray(0, end + 1024) });
      await loadHistoryParts([join(dir, 'whole.tar')]);
      await loadHistoryParts([join(dir, 'marker-only.tar')]);
    });
  });

  it('a gzip stream cut in its trailer (the tar inside it whole)', async () => {
    const archive = join(tmp, 'trailer.tar.gz');
    await tar.c({ gzip: true, file: archive, cwd: 'test/fixtures/sources', portable: true }, ['ci-run']);
    const bytes = await readFile(archive);
    // The 8-byte trailer is CRC-32 and size: without it the data is unchecked, so it is truncated.
    for (const keep of [0, 4, 7]) {
      const dir = await folder({ 'cut.tar.gz': bytes.subarray(0, bytes.length - 8 + keep) });
      const err = await inputError([join(dir, 'cut.tar.gz')]);
      expect(err.message).toBe(`${dir}/cut.tar.gz: corrupt gzip data: unexpected end of file`);
    }
  });

  it('a broken file inside an archive is named with its inner path', async () => {
    const dir = await folder({ 'run/machineconfigpools.json': '{"items": [' });
    const archive = join(tmp, 'broken-inside.tgz');
    await tar.c({ gzip: true, file: archive, cwd: dir, portable: true }, ['run']);
    const err = await inputError([archive]);
    expect(err.message).toBe(
      `${archive}!run/machineconfigpools.json: invalid JSON: Unexpected end of JSON input at position 11`,
    );
  });

  it('an archive with nothing atlevel reads', async () => {
    const dir = await folder({ 'a/readme.txt': 'hi' });
    const archive = join(tmp, 'empty.tar');
    await tar.c({ file: archive, cwd: dir, portable: true }, ['a']);
    const err = await inputError([archive]);
    expect(err.problem).toBe('no atlevel inputs found in the archive');
  });

  it('an incidental file its reader stops reading early does not stall the archive', async () => {
    // Found by test/sources/fuzz.test.ts: the lenient reader of other YAML refuses objects.yaml at its
    // first chunk (a NUL: binary data), and tar gave no further entry, nor its end, until that one ended.
    const dir = await folder({
      'objects.yaml': [
        'Jan 0103:23:09.856 W Completed upgrade to constructor is still reporting (Updated: true, Updating: false, Degraded: false)🙂',
        'Dec 3123:59:59.999 - 6s    E node/z9: reason/2021-11-03T03:23:09Z',
        'Foo 9903:23:09.856 - 12ms I node/\u0000nul versions: __proto__',
        'Nov  399:99:99.999: INFO: clusteroperator/ versions: Z',
      ].join('\n'),
      'mg/cluster-scoped-resources/core/nodes/n1.yaml': Buffer.from([0xf9, 0xcf, 0x52]),
    });
    const archive = join(tmp, 'stopped-early.tar.gz');
    await tar.c({ gzip: true, file: archive, cwd: dir, portable: true }, ['objects.yaml', 'mg']);
    const parts = await loadHistoryParts([archive]);
    expect(parts.notes).toContain(`${archive}!objects.yaml: skipped, binary data, not a text file`);
    expect(parts.notes).toContain(`${archive}: read as must-gather + other YAML/JSON`);
  });

  it('an archive entry over the size cap', async () => {
    const dir = await folder({});
    await copyFile(`${GA}/machineconfigs.json`, join(dir, 'machineconfigs.json'));
    const archive = join(tmp, 'big.tar');
    await tar.c({ file: archive, cwd: dir, portable: true }, ['machineconfigs.json']);
    const err = await inputError([archive], { maxFileBytes: 1000 });
    expect(err.message).toBe(`${archive}!machineconfigs.json: size exceeds 1000 bytes`);
  });
});
