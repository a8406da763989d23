import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../model/index.js';
import { loadKubeConfig } from './config.js';

async function problem(flags: { kubeconfig: string }, env: NodeJS.ProcessEnv = {}): Promise<string> {
  try {
    await loadKubeConfig(flags, env);
  } catch (err) {
    if (err instanceof InputError) return `${err.file}: ${err.problem}`;
    throw err;
  }
  throw new Error('expected an InputError');
}

describe('a kubeconfig that is not a file to read', () => {
  const dir = mkdtempSync(join(tmpdir(), 'atlevel-kubeconfig-'));

  it('a device is refused before anything reads it (/dev/zero never ends)', async () => {
    expect(await problem({ kubeconfig: '/dev/zero' })).toBe(
      '/dev/zero: the kubeconfig is not a regular file',
    );
  });

  it('an empty file is not a kubeconfig (no JavaScript error leaks out)', async () => {
    const empty = join(dir, 'empty.json');
    writeFileSync(empty, '');
    expect(await problem({ kubeconfig: empty })).toBe(
      `${empty}: not a kubeconfig: it holds no clusters, users or contexts`,
    );
  });

  it('a token file or CA it names that is a device is refused before the client library reads it', async () => {
    const kc = join(dir, 'kc');
    writeFileSync(
      kc,
      [
        'apiVersion: v1',
        'kind: Config',
        'clusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]',
        'users: [{name: u, user: {token-file: /dev/zero}}]',
        'contexts: [{name: x, context: {cluster: c, user: u}}]',
        'current-context: x',
        '',
      ].join('\n'),
    );
    expect(await problem({ kubeconfig: kc })).toBe('/dev/zero: the token file is not a regular file');
  });
});
