/**
 * A gzip bomb in an Ignition data URL, through the real CLI in a separate process so that its peak
 * memory (getrusage maxRSS) is its own: refused with an error naming the file and the Ignition path,
 * exit 2, and the process never grows past a few hundred MB.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../helpers/fixtures.js';

const MIB = 1024 * 1024;
const dir = mkdtempSync(join(tmpdir(), 'atlevel-bomb-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function machineConfig(name: string, source: string, compression?: string) {
  return {
    apiVersion: 'machineconfiguration.openshift.io/v1',
    kind: 'MachineConfig',
    metadata: { name },
    spec: {
      config: {
        ignition: { version: '3.2.0' },
        storage: {
          files: [
            { path: '/etc/motd', mode: 420, contents: { source: 'data:,hello%0A' } },
            {
              path: '/etc/bomb.conf',
              mode: 420,
              contents: { source, ...(compression ? { compression } : {}) },
            },
          ],
        },
      },
    },
  };
}

/** Run the CLI in a child process; returns its exit code, stderr and peak RSS in MB. */
function runCli(args: string[]): { status: number | null; stderr: string; peakMb: number } {
  const script = `
    import { main } from './src/cli/main.ts';
    const code = await main(${JSON.stringify(args)});
    process.stdout.write(JSON.stringify({ code, maxRssKb: process.resourceUsage().maxRSS }));
  `;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: projectRoot,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  const out = JSON.parse(r.stdout.slice(r.stdout.lastIndexOf('{"code"'))) as {
    code: number;
    maxRssKb: number;
  };
  return { status: out.code, stderr: r.stderr, peakMb: out.maxRssKb / 1024 };
}

describe('a gzip bomb in a data URL', () => {
  it('is refused with the file and Ignition path named, without memory growing past a few hundred MB', () => {
    // 160 gzip members of 64 MiB of zeros: 10 GiB declared in total, 10 MB of gzip, 13 MB of base64.
    const member = gzipSync(Buffer.alloc(64 * MIB), { level: 9 });
    const bomb = Buffer.concat(Array.from({ length: 160 }, () => member));
    const a = join(dir, 'a.json');
    const b = join(dir, 'b.json');
    writeFileSync(a, JSON.stringify(machineConfig('ok', 'data:,small%0A')));
    writeFileSync(
      b,
      JSON.stringify(machineConfig('bomb', `data:;base64,${bomb.toString('base64')}`, 'gzip')),
    );
    const r = runCli(['diff', a, b]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${b}: MachineConfig bomb spec.config.storage.files[1].contents.source`);
    expect(r.stderr).toContain('/etc/bomb.conf: gzip contents expand past the 67108864-byte cap');
    expect(r.stderr).not.toContain('    at ');
    expect(r.peakMb).toBeLessThan(400);
  });

  it('a malformed data URL is an error naming the file, the object and the path', () => {
    const a = join(dir, 'list.json');
    const bad = machineConfig('rendered-worker-1', 'data:text/plain;base64,%%%');
    writeFileSync(
      a,
      JSON.stringify({ kind: 'List', items: [machineConfig('rendered-worker-0', 'data:,x'), bad] }),
    );
    const r = runCli(['diff', 'rendered-worker-0', 'rendered-worker-1', '--from', a]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(
      /list\.json: MachineConfig rendered-worker-1 .*spec\.config\.storage\.files\[1\]\.contents\.source: \/etc\/bomb\.conf: invalid percent escape/,
    );
  });
});
