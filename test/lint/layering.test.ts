/**
 * The layering rules in .dependency-cruiser.cjs fail the lint on the mistakes they exist for: an upward
 * import (sources → timeline among them), a named wrong-way arrow (watch → sim), a cycle, an import
 * past another folder's index.ts and disk access inside an analysis. Runs the real depcruise binary
 * with the repo's config over a small tree written to a temporary folder.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const depcruise = join(root, 'node_modules/.bin/depcruise');
const config = join(root, '.dependency-cruiser.cjs');

const TREE: Record<string, string> = {
  'tsconfig.json': JSON.stringify({
    compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', strict: true },
    include: ['src'],
  }),
  'src/model/index.ts': 'export const model = 1;\n',
  'src/model/inner.ts': 'export const inner = 2;\n',
  // Past another folder's index.ts, to one of its inner files.
  'src/release/index.ts': "import { inner } from '../model/inner.js';\nexport const release = inner;\n",
  // A clean import: downward, through the other folder's index.
  'src/invariants/index.ts': "import { model } from '../model/index.js';\nexport const rule = model;\n",
  // Upward: status (layer 1) imports invariants (layer 2).
  'src/status/index.ts': "import { rule } from '../invariants/index.js';\nexport const status = rule;\n",
  // A cycle inside timeline.
  'src/timeline/a.ts': "import { b } from './b.js';\nexport const a = (): number => b() + 1;\n",
  'src/timeline/b.ts': "import { a } from './a.js';\nexport const b = (): number => a() - 1;\n",
  'src/timeline/index.ts': "export { a } from './a.js';\n",
  // An analysis reading a file.
  'src/explain/index.ts':
    "import { readFileSync } from 'node:fs';\nexport const read = () => readFileSync('x');\n",
  // Allowed: sources reads files.
  'src/sources/index.ts':
    "import { readFileSync } from 'node:fs';\nexport const open = () => readFileSync('x');\nexport { drop } from './echoes.js';\n",
  // Upward: sources (which make a history's parts) import timeline (which builds the history).
  'src/sources/echoes.ts': "import { a } from '../timeline/index.js';\nexport const drop = a;\n",
  // A test beside the code that reaches another folder: it belongs in test/.
  'src/release/index.test.ts': "import { rule } from '../invariants/index.js';\nexport const t = rule;\n",
  // Down the layers but the wrong way: the watcher takes the CI layout from the simulator.
  'src/sim/index.ts': 'export const ciRun = 1;\n',
  'src/watch/index.ts': "import { ciRun } from '../sim/index.js';\nexport const record = ciRun;\n",
  // Upward: the live client imports the sources, which open it (the arrow goes sources → live).
  'src/live/index.ts': "import { open } from '../sources/index.js';\nexport const client = open;\n",
  // Allowed: a source opens the live client.
  'src/sources/open.ts': "import { client } from '../live/index.js';\nexport const live = client;\n",
};

let dir = '';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'atlevel-layering-'));
  for (const [path, text] of Object.entries(TREE)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

function cruise(): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(
      depcruise,
      ['src', '--config', config, '--output-type', 'err'],
      { cwd: dir },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, out: `${stdout}${stderr}` });
      },
    );
  });
}

describe('layering rules', () => {
  it('fail on an upward import (sources → timeline, live → sources), watch → sim, a test beside the code reaching another folder, a cycle, an import past another folder index.ts and file access in an analysis, and only there', async () => {
    const { code, out } = await cruise();
    expect(code).not.toBe(0);
    expect(out).toMatch(
      /error no-upward-from-status-machineconfig-signatures: src\/status\/index\.ts → src\/invariants\/index\.ts/,
    );
    expect(out).toMatch(/error no-circular: src\/timeline\/a\.ts/);
    expect(out).toMatch(/error io-only-at-the-edges: src\/explain\/index\.ts → (node:)?fs/);
    expect(out).not.toMatch(/src\/invariants\/index\.ts →/);
    expect(out).not.toMatch(/src\/sources\/index\.ts →/);
    expect(out).toMatch(/error no-upward-from-sources: src\/sources\/echoes\.ts → src\/timeline\/index\.ts/);
    expect(out).toMatch(/error consumers-not-to-sim: src\/watch\/index\.ts → src\/sim\/index\.ts/);
    expect(out).toMatch(/error cross-folder-through-index: src\/release\/index\.ts → src\/model\/inner\.ts/);
    expect(out).toMatch(
      /error test-beside-its-code: src\/release\/index\.test\.ts → src\/invariants\/index\.ts/,
    );
    expect(out).toMatch(/error no-upward-from-live: src\/live\/index\.ts → src\/sources\/index\.ts/);
    expect(out).not.toMatch(/src\/sources\/open\.ts →/);
    expect(out).toMatch(/\(8 errors,/);
  });
});
