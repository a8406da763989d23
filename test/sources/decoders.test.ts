/**
 * DECODERS through the pipeline: each compression read by magic bytes (whatever the name says), the
 * same parts as the plain archive, corrupt data as one InputError, and the run's budget charged.
 */
import { execFileSync } from 'node:child_process';
import { appendFile, copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Budget } from '../../src/model/budget.js';
import { InputError } from '../../src/model/errors.js';
import type { HistoryParts } from '../../src/model/history.js';
import { loadHistoryParts } from '../helpers/load.js';
import { skipNote } from '../helpers/skip.js';

const CI = 'test/fixtures/sources/ci-run';
let tmp: string;
let plain: HistoryParts;

const has = (tool: string): boolean => {
  try {
    execFileSync(tool, ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

/** Why a test that needs the command-line `tool` to make its archive was skipped. */
const noTool = (tool: string) => skipNote(has(tool) ? undefined : `no ${tool} command to make the archive`);

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'atlevel-dec-'));
  execFileSync('tar', ['-C', CI, '-cf', join(tmp, 'run.tar'), '.']);
  plain = await loadHistoryParts([join(tmp, 'run.tar')]);
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

/** The parts without the file names, which differ by archive name. */
function facts(p: HistoryParts): unknown {
  return JSON.parse(JSON.stringify({ ...p, inputs: p.inputs.length, notes: [] }).replaceAll(/[^/"]+!/g, ''));
}

async function inputError(paths: string[], budget?: Budget): Promise<InputError> {
  try {
    await loadHistoryParts(paths, budget ? { budget } : {});
  } catch (err) {
    if (err instanceof InputError) return err;
    throw err;
  }
  throw new Error('expected an InputError');
}

describe('compressed archives', () => {
  it('reads a .tar.gz with trailing garbage, with a note', async () => {
    const gz = join(tmp, 'garbage.tar.gz');
    await writeFile(gz, gzipSync(await import('node:fs').then((f) => f.readFileSync(join(tmp, 'run.tar')))));
    await appendFile(gz, Buffer.from('not gzip at all, just bytes after the member'));
    const parts = await loadHistoryParts([gz]);
    expect(facts(parts)).toEqual(facts(plain));
    expect(parts.notes).toContain(`${gz}: ignored bytes after the end of the gzip data`);
  });

  it.skipIf(!has('zstd'))(
    `reads a real .tar.zst, and the same bytes named .tar${noTool('zstd')}`,
    async () => {
      const zst = join(tmp, 'run.tar.zst');
      execFileSync('zstd', ['-q', '-f', join(tmp, 'run.tar'), '-o', zst]);
      expect(facts(await loadHistoryParts([zst]))).toEqual(facts(plain));
      const renamed = join(tmp, 'renamed.tar');
      await copyFile(zst, renamed);
      expect(facts(await loadHistoryParts([renamed]))).toEqual(facts(plain));
    },
  );

  it.skipIf(!has('xz'))(`reads a real .tar.xz, and the same bytes named .txz${noTool('xz')}`, async () => {
    const xz = join(tmp, 'run.tar.xz');
    execFileSync('sh', ['-c', `xz -c "${join(tmp, 'run.tar')}" > "${xz}"`]);
    expect(facts(await loadHistoryParts([xz]))).toEqual(facts(plain));
    const txz = join(tmp, 'run.txz');
    await copyFile(xz, txz);
    expect(facts(await loadHistoryParts([txz]))).toEqual(facts(plain));
  });

  it('refuses a truncated .tar.xz with one line', async () => {
    const xz = join(tmp, 'cut.tar.xz');
    execFileSync('sh', ['-c', `xz -c "${join(tmp, 'run.tar')}" | head -c 300 > "${xz}"`]);
    const err = await inputError([xz]);
    expect(err.file).toBe(xz);
    expect(err.message).not.toContain('\n');
  });

  it('refuses zstd magic followed by random bytes with one line', async () => {
    const z = join(tmp, 'z.tar');
    const junk = Buffer.alloc(2000);
    for (let i = 0; i < junk.length; i++) junk[i] = (i * 7919 + 13) % 251;
    await writeFile(z, Buffer.concat([Buffer.from([0x28, 0xb5, 0x2f, 0xfd]), junk]));
    const err = await inputError([z]);
    expect(err.file).toBe(z);
    expect(err.message).toMatch(/corrupt zstd data/);
    expect(err.message).not.toContain('\n');
  });

  it('charges the run budget for decompressed bytes', async () => {
    const gz = join(tmp, 'charged.tar.gz');
    await writeFile(gz, gzipSync(await import('node:fs').then((f) => f.readFileSync(join(tmp, 'run.tar')))));
    const err = await inputError([gz], new Budget({ decompressedBytes: 1000 }));
    expect(err.message).toMatch(/over the decompressed bytes per run limit .*--max-decompressed/);
  });
});

describe('archives recognised by content', () => {
  it('reads a .tar.gz and a plain .tar whatever their names', async () => {
    const tarball = await import('node:fs').then((f) => f.readFileSync(join(tmp, 'run.tar')));
    const noName = join(tmp, 'artifacts');
    await writeFile(noName, gzipSync(tarball));
    expect(facts(await loadHistoryParts([noName]))).toEqual(facts(plain));
    const bin = join(tmp, 'run.bin');
    await writeFile(bin, tarball);
    expect(facts(await loadHistoryParts([bin]))).toEqual(facts(plain));
  });

  it('still refuses a file that is neither an archive nor a known name', async () => {
    const other = join(tmp, 'notes.bin');
    await writeFile(other, 'just some text, long enough to look at its first bytes\n'.repeat(20));
    const err = await inputError([other]);
    expect(err.message).toMatch(/not an atlevel input/);
  });
});

describe('compressed files in a folder', () => {
  it.skipIf(!has('zstd'))(
    `reads a gather-extra List compressed with zstd by its magic${noTool('zstd')}`,
    async () => {
      const dir = await mkdtemp(join(tmp, 'folder-'));
      execFileSync('cp', ['-r', `${CI}/.`, dir]);
      const ga = execFileSync('find', [dir, '-name', 'clusterversion.json']).toString().trim();
      execFileSync('zstd', ['-q', '--rm', ga, '-o', `${ga}.zst`]);
      const parts = await loadHistoryParts([dir]);
      expect(parts.objects.clusterVersions).toHaveLength(plain.objects.clusterVersions.length);
      expect(parts.objects.clusterVersions[0]?.ref.file).toMatch(/clusterversion\.json\.zst$/);
    },
  );
});
