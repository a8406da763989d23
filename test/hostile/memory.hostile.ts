/**
 * Issue 38's memory cases, each a standing test of docs/limits.md's "Memory" table: a 250 MB
 * gather-extra events.json cut before its end (it was parsed again whole to find the error: 1.08 GiB),
 * a build log of a million monitor lines, and a folder of 100,000 one-object JSON files. Each runs
 * bin/atlevel.js as a child process and asserts its exit code and peak RSS under 1 GiB; the time bound
 * is the hang guard every hostile case has, not a speed goal.
 */
import {
  closeSync,
  createWriteStream,
  mkdirSync,
  mkdtempSync,
  openSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as gen from './gen.js';
import { problems, runCli } from './run.js';

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'atlevel-hostile-memory-'));
});
// 100,000 files and 350 MB take a while to remove on a busy machine.
afterAll(() => rmSync(dir, { recursive: true, force: true }), 300_000);

const GA = join('artifacts', 'e2e', 'gather-extra', 'artifacts');

function line(name: string, r: Awaited<ReturnType<typeof runCli>>): void {
  console.log(`hostile: ${name} | exit ${r.code ?? r.signal} | peak ${r.peakMiB} MiB | ${r.ms} ms`);
}

describe('38. memory', () => {
  it('a 250 MB events.json cut before its end: exit 2, not parsed again whole', async () => {
    const run = gen.miniRun(dir, 'cut-events');
    const fd = openSync(join(run, GA, 'events.json'), 'w');
    writeSync(fd, '{"kind":"List","apiVersion":"v1","items":[');
    let bytes = 0;
    let parts: string[] = [];
    for (let i = 0; bytes < 250 * 1024 * 1024; i++) {
      const e = `${i ? ',' : ''}${JSON.stringify({
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name: `ev-${i}`, namespace: `ns-${i % 100}` },
        involvedObject: { kind: 'Pod', name: `pod-${i % 5000}` },
        reason: 'BackOff',
        message: `Back-off restarting failed container ${i}`,
        firstTimestamp: '2021-11-03T03:00:00Z',
        lastTimestamp: '2021-11-03T03:10:00Z',
        count: 3,
        type: 'Warning',
      })}`;
      bytes += e.length;
      parts.push(e);
      if (parts.length >= 10_000) {
        writeSync(fd, parts.join(''));
        parts = [];
      }
    }
    // No closing `]}`: the file ends inside the List.
    writeSync(fd, parts.join(''));
    closeSync(fd);
    const r = await runCli(['analyze', run], { timeoutMs: 240_000 });
    line('250 MB events.json cut short', r);
    expect(problems(r, [2]), r.stderr).toEqual([]);
    expect(r.stderr).toMatch(/events\.json: invalid JSON: the object does not end/);
  }, 300_000);

  it('a build log of 1,000,000 monitor lines about 5,000 pods: under 1 GiB', async () => {
    const run = gen.miniRun(dir, 'long-log');
    const out = createWriteStream(join(run, 'build-log.txt'));
    for (let i = 0; i < 1_000_000; i++) {
      const clock = `03:${String(Math.floor(i / 60_000) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}.${String(i % 1000).padStart(3, '0')}`;
      const text = `Nov 03 ${clock} I ns/openshift-ns-${i % 50} pod/pod-${i % 5000} node/node-${i % 20} reason/Reason${i % 30} message number ${i}\n`;
      if (!out.write(text)) await new Promise<void>((r) => out.once('drain', () => r()));
    }
    await new Promise<void>((r) => out.end(() => r()));
    const r = await runCli(['analyze', run], { timeoutMs: 240_000 });
    line('1,000,000-line build log', r);
    expect(problems(r, [0, 1, 4]), r.stderr).toEqual([]);
  }, 300_000);

  it('a folder of 100,000 one-Event JSON files: read, under 1 GiB', async () => {
    const folder = join(dir, 'tiny');
    mkdirSync(folder);
    writeFileSync(join(folder, 'clusterversion.json'), JSON.stringify(gen.clusterVersion(false)));
    for (let i = 0; i < 100_000; i++) {
      writeFileSync(
        join(folder, `event-${i}.json`),
        JSON.stringify({
          apiVersion: 'v1',
          kind: 'Event',
          metadata: { name: `e-${i}`, namespace: 'default' },
          reason: 'R',
          message: `m ${i}`,
          involvedObject: { kind: 'Node', name: `n-${i % 10}` },
          firstTimestamp: '2021-11-03T03:00:00Z',
        }),
      );
    }
    const r = await runCli(['analyze', folder], { timeoutMs: 240_000 });
    line('100,000 tiny JSON files', r);
    expect(problems(r, [0, 1, 4]), r.stderr).toEqual([]);
  }, 300_000);
});
