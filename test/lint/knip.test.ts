/**
 * knip's rules in knip.jsonc fail the lint on an unused export and an unused exported type: runs the
 * real knip binary with the repo's config over a small project written to a temporary folder, in
 * which one module exports a constant and an interface nobody imports beside one that is used.
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const knip = join(root, 'node_modules/.bin/knip');

const TREE: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'fixture', version: '0.0.0', type: 'module', private: true }),
  'tsconfig.json': JSON.stringify({
    compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', strict: true },
    include: ['src'],
  }),
  'src/cli/main.ts': "import { used } from '../model/index.js';\nconsole.log(used);\n",
  'src/model/index.ts':
    'export const used = 1;\nexport const unused = 2;\nexport interface UnusedType {\n  readonly a: number;\n}\n',
};

let dir = '';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'atlevel-knip-'));
  for (const [path, text] of Object.entries(TREE)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  await copyFile(join(root, 'knip.jsonc'), join(dir, 'knip.jsonc'));
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('knip rules', () => {
  it('fail on an unused export and an unused exported type, and only on them', async () => {
    const { code, out } = await new Promise<{ code: number; out: string }>((resolve) => {
      execFile(knip, ['--no-progress'], { cwd: dir }, (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, out: `${stdout}${stderr}` });
      });
    });
    expect(code).not.toBe(0);
    expect(out).toMatch(/Unused exports \(1\)\n\s*unused\s+src\/model\/index\.ts/);
    expect(out).toMatch(/Unused exported types \(1\)\n\s*UnusedType\s+interface\s+src\/model\/index\.ts/);
    expect(out).not.toMatch(/\bused\s+src\/model/);
  });
});
