/**
 * `atlevel watch` as a command: NDJSON on stdout, the analyze exit code at completion, --record
 * refusing a folder that holds something, and a stop midway (Ctrl-C) leaving a complete record or
 * none, never half of one.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { runWatch } from '../../src/cli/watch.js';
import { bin } from '../helpers/spawn-cli.js';
import { kubeconfigFile, serve, startReplayWhenWatched, until } from './helpers.js';

const tmp = mkdtempSync(join(tmpdir(), 'atlevel-watch-cli-'));
let stdout = '';
let stderr = '';
beforeEach(() => {
  stdout = '';
  stderr = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout += String(chunk);
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  });
  process.env.NO_COLOR = '1';
});
afterEach(() => vi.restoreAllMocks());

describe('atlevel watch', () => {
  it('-o json: one event per line, both findings, the verdict; exit 1 as analyze', async () => {
    // The update's last quarter hour (the race, the CVO's completion, the pools' finish) at 400×.
    const server = await serve(['examples/bug-2019850'], {
      replay: true,
      holdReplay: true,
      speed: 400,
      range: { from: Date.parse('2021-11-03T03:22:00Z') },
    });
    try {
      const record = join(tmp, 'rec');
      const code = main([
        'watch',
        '--kubeconfig',
        kubeconfigFile(server.url),
        '-o',
        'json',
        '--record',
        record,
      ]);
      await startReplayWhenWatched(server, 8);
      expect(await code).toBe(1);
      const events = stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { type: string; rule?: string; verdict?: string });
      expect(events[0]?.type).toBe('start');
      // Each once. Not in a fixed order: in the example the rendered config (which decides the level
      // rule) and the CVO's completion are ten recorded seconds apart, a few milliseconds of a fast
      // replay, and they arrive on different watch streams.
      expect(
        events
          .filter((e) => e.type === 'finding')
          .map((e) => e.rule)
          .sort(),
      ).toEqual(['master-pool-updated-before-cvo-complete', 'operator-level-before-required-pool-target']);
      // The verdict comes once, last: after the findings and after every transition recorded while
      // the operators settled (issue 37: two transitions used to follow it).
      const complete = events.filter((e) => e.type === 'complete');
      expect(complete).toHaveLength(1);
      expect(complete[0]).toMatchObject({ type: 'complete', verdict: 'fail' });
      expect(events.at(-1)).toBe(complete[0]);
      expect(events.findLastIndex((e) => e.type === 'finding')).toBeLessThan(
        events.indexOf(complete[0] as never),
      );
      expect(readdirSync(record)).toContain('build-log.txt');
      expect(stderr).toContain(`recorded to ${record}`);
    } finally {
      await server.close();
    }
  });

  it('--record into a folder that holds something: one line, exit 2, nothing touched', async () => {
    const dir = join(tmp, 'full');
    mkdirSync(dir);
    writeFileSync(join(dir, 'keep.txt'), 'mine');
    const server = await serve(['examples/bug-2019850']);
    try {
      expect(await main(['watch', '--kubeconfig', kubeconfigFile(server.url), '--record', dir])).toBe(2);
      expect(stderr.trim().split('\n')).toHaveLength(1);
      expect(stderr).toContain('not empty');
      expect(readdirSync(dir)).toEqual(['keep.txt']);
    } finally {
      await server.close();
    }
  });

  it('stopped midway (Ctrl-C): the record is complete and analyze reads it; no partial folder is left', async () => {
    const server = await serve(['examples/bug-2019850'], {
      replay: true,
      holdReplay: true,
      speed: 200,
      range: { from: Date.parse('2021-11-03T03:22:00Z') },
    });
    try {
      const record = join(tmp, 'stopped');
      const stop = new AbortController();
      const code = runWatch({ kubeconfig: kubeconfigFile(server.url), output: 'text', record }, stop.signal);
      await startReplayWhenWatched(server, 8);
      await until(
        () => stdout.includes('operator-level-before-required-pool-target'),
        30_000,
        'the level race',
      );
      stop.abort();
      expect(await code).toBe(1);
      expect(stdout).toContain('stopped before the update completed');
      expect(readdirSync(tmp).filter((n) => n.startsWith('.'))).toEqual([]);
      stdout = '';
      // A complete CI layout: analyze reads it (a verdict, not bad input); the level report is in it.
      expect([0, 1, 4]).toContain(
        await main(['analyze', record, '--brief', '--out', join(tmp, 'stopped.txt')]),
      );
      expect(readFileSync(join(record, 'build-log.txt'), 'utf8')).toMatch(
        /clusteroperator\/machine-config versions: operator \S+ -> 4\.10\.0-0\.nightly-2021-11-03-020416/,
      );
    } finally {
      await server.close();
    }
  });

  it('Ctrl-C (SIGINT) or SIGTERM of the process: exit 4, the update not judged to its end (never 0, never 1 for the stop)', async () => {
    // kubectl's watchers (get -w, rollout status, wait) exit 1 when interrupted; atlevel's 1 is "a rule
    // was violated", so a stop that saw no violation is 4, inconclusive, as its verdict line says.
    const server = await serve(['examples/bug-2019850-fixed']);
    try {
      for (const signal of ['SIGINT', 'SIGTERM'] as const) {
        const child = spawn(
          process.execPath,
          [bin, 'watch', '--kubeconfig', kubeconfigFile(server.url), '--forever', '-o', 'json'],
          { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } },
        );
        let out = '';
        child.stdout.on('data', (c) => {
          out += String(c);
        });
        const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
        await until(
          () => out.includes('"type":"start"') || child.exitCode !== null,
          30_000,
          'the watch to start',
        );
        child.kill(signal);
        expect(await exited, signal).toBe(4);
        const last = JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as Record<string, unknown>;
        expect(last, signal).toMatchObject({ type: 'stopped', verdict: 'inconclusive' });
      }
    } finally {
      await server.close();
    }
  });

  it('--forever stopped with no update in progress: INCONCLUSIVE and exit 4, never PASS', async () => {
    // The cluster at the end of the fixed run: the update is over and passed, none is in progress
    // (the analysis of what was seen says PASS, which is what a stopped watch used to print).
    const server = await serve(['examples/bug-2019850-fixed']);
    try {
      for (const output of ['text', 'json'] as const) {
        stdout = '';
        const stop = new AbortController();
        const code = runWatch({ kubeconfig: kubeconfigFile(server.url), output, forever: true }, stop.signal);
        await until(() => stdout.includes('no update in progress'), 30_000, 'the watch to start');
        stop.abort();
        expect(await code).toBe(4);
        expect(stdout).not.toMatch(/PASS|NO UPDATE/);
        if (output === 'text') {
          expect(stdout).toContain('stopped with no update in progress; what was seen:');
          expect(stdout).toContain(
            'INCONCLUSIVE: the watch stopped with no update in progress, so it judged no update to its end',
          );
        } else {
          const last = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as Record<string, unknown>;
          expect(last).toMatchObject({ type: 'stopped', verdict: 'inconclusive' });
          expect(String(last.reason)).toContain('no update in progress');
        }
      }
    } finally {
      await server.close();
    }
  });
});
