/**
 * The input side of the hostile cases (docs/limits.md, "Input trees"): symlinks out of the tree,
 * undecodable names, special files given to the single-file readers, binary data, an objects bomb
 * under the tree budget, and duplicate YAML keys read the same by every reader.
 */
import { execFileSync } from 'node:child_process';
import { cpSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Budget } from '../../src/model/budget.js';
import { InputError } from '../../src/model/errors.js';
import { parseScenario } from '../../src/sim/index.js';
import {
  loadMachineConfigFile,
  loadReleasePayload,
  parseDocuments,
  readInputDocuments,
} from '../../src/sources/index.js';
import { loadHistoryParts } from '../helpers/load.js';

const CI = 'test/fixtures/sources/ci-run';
let tmp: string;

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'atlevel-hostile-in-'));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

async function inputError(run: () => Promise<unknown>): Promise<InputError> {
  try {
    await run();
  } catch (err) {
    if (err instanceof InputError) return err;
    throw err;
  }
  throw new Error('expected an InputError');
}

describe('input trees', () => {
  it('skips a symlink to outside the input folder with a note, and follows one inside', async () => {
    const dir = join(tmp, 'links');
    cpSync(CI, dir, { recursive: true });
    await writeFile(join(tmp, 'secret.yaml'), 'root:x:0:0:root:/root:/bin/bash\n');
    await symlink(join(tmp, 'secret.yaml'), join(dir, 'passwd.yaml'));
    await mkdir(join(dir, 'more'));
    await symlink('../build-log.txt', join(dir, 'more', 'inside.txt'));
    const parts = await loadHistoryParts([dir]);
    expect(parts.notes).toContain(`${dir}: skipped passwd.yaml (symlink to outside the input folder)`);
    expect(JSON.stringify(parts)).not.toContain('root:x');
    expect(parts.inputs.some((i) => i.path.endsWith('passwd.yaml'))).toBe(false);
  });

  it('skips a name that is not valid UTF-8 with a note instead of failing the run', async () => {
    const dir = join(tmp, 'names');
    cpSync(CI, dir, { recursive: true });
    execFileSync('sh', ['-c', `printf 'hello' > "${dir}/$(printf 'README-\\377\\376')"`]);
    const parts = await loadHistoryParts([dir]);
    expect(parts.notes.some((n) => /name is not valid UTF-8/.test(n))).toBe(true);
    expect(parts.objects.clusterVersions.length).toBeGreaterThan(0);
  });
});

describe('a folder of runs and what lies beside them, in hostile trees', () => {
  it('a folder of oc get files in subfolders, one undecodable and a link to / beside them: read whole, the walk never leaves it', async () => {
    const dir = join(tmp, 'snapshots');
    await mkdir(join(dir, 'a'), { recursive: true });
    await mkdir(join(dir, 'b'));
    cpSync('test/fixtures/sources/oc-get/cluster.yaml', join(dir, 'a', 'cluster.yaml'));
    cpSync('test/fixtures/sources/oc-get/operators.json', join(dir, 'b', 'operators.json'));
    execFileSync('sh', [
      '-c',
      `mkdir "${dir}/$(printf 'x-\\377')" && printf 'kind: List\\nitems: []\\n' > "${dir}/$(printf 'x-\\377')/n.yaml"`,
    ]);
    await symlink('/', join(dir, 'root'));
    const parts = await loadHistoryParts([dir]);
    expect(parts.inputs.map((i) => i.path).sort()).toEqual([
      join(dir, 'a', 'cluster.yaml'),
      join(dir, 'b', 'operators.json'),
    ]);
    expect(parts.notes).toContain(`${dir}: skipped root (symlink to outside the input folder)`);
    expect(parts.notes.some((n) => /name is not valid UTF-8/.test(n))).toBe(true);
  });
});

describe('special files given to the single-file readers', () => {
  it('refuses a FIFO for diff, release info, --release-from and a scenario, without blocking', async () => {
    const fifo = join(tmp, 'fifo.yaml');
    execFileSync('mkfifo', [fifo]);
    for (const run of [
      () => loadMachineConfigFile(fifo),
      () => loadReleasePayload(fifo),
      () => readInputDocuments(fifo),
      () => loadHistoryParts([CI], { releaseFrom: fifo }),
      () => loadHistoryParts([fifo]),
    ]) {
      const err = await inputError(run);
      expect(err.file).toBe(fifo);
      expect(err.problem).toMatch(/not a regular file/);
    }
  });

  it('refuses a device', async () => {
    const err = await inputError(() => loadMachineConfigFile('/dev/zero'));
    expect(err.problem).toMatch(/not a regular file/);
  });
});

describe('binary and oversized trees', () => {
  it('refuses a large file of NULs from its first bytes', async () => {
    const f = join(tmp, 'nul.yaml');
    // Sparse: 200 MB of NULs on no disk space; refused without reading it whole.
    execFileSync('truncate', ['-s', '200M', f]);
    const err = await inputError(() => loadMachineConfigFile(f));
    expect(err.problem).toBe('binary data, not a text file');
    const err2 = await inputError(() => loadHistoryParts([f]));
    expect(err2.problem).toBe('binary data, not a text file');
  });

  it('stops a JSON objects bomb at the node budget, naming the file, the limit and the flag', async () => {
    const f = join(tmp, 'bomb.json.gz');
    await writeFile(f, gzipSync(Buffer.from(`[${'{},'.repeat(2_000_000)}{}]`)));
    const err = await inputError(() =>
      loadHistoryParts([f], { budget: new Budget({ treeNodes: 1_000_000 }) }),
    );
    expect(err.file).toBe(f);
    expect(err.message).toMatch(/over the parsed nodes per document limit of 1000000.*--max-tree-nodes/);
  });

  it('refuses YAML aliases that expand past the budget (billion laughs) in every reader', async () => {
    const lines = ['a: &a ["x","x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 9; i++) {
      const prev = String.fromCharCode(96 + i);
      const cur = String.fromCharCode(97 + i);
      lines.push(
        `${cur}: &${cur} [*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev}]`,
      );
    }
    const text = `${lines.join('\n')}\nkind: MachineConfig\n`;
    const f = join(tmp, 'laughs.yaml');
    await writeFile(f, text);
    for (const run of [() => loadMachineConfigFile(f), async () => parseScenario(text, f)]) {
      const err = await inputError(run);
      expect(err.file).toBe(f);
      expect(err.message).not.toContain('\n');
    }
  });

  it('refuses nesting deeper than the depth budget before parsing JSON', () => {
    const text = `${'['.repeat(3000)}${']'.repeat(3000)}`;
    expect(() => parseDocuments(text, 'deep.json', true)).toThrow(
      /nesting depth limit of 512.*--max-tree-depth/,
    );
  });
});

describe('duplicate YAML keys', () => {
  it('the last one wins, in every reader', async () => {
    const text = 'kind: MachineConfig\nmetadata:\n  name: first\n  name: second\nspec: {}\n';
    const f = join(tmp, 'dup.yaml');
    await writeFile(f, text);
    const [mc] = await loadMachineConfigFile(f);
    expect(mc?.object.metadata.name).toBe('second');
    const [doc] = parseDocuments(text, f, false);
    expect((doc?.value as { metadata?: { name?: string } } | undefined)?.metadata?.name).toBe('second');
  });
});
