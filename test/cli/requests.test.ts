/**
 * Flags into requests (src/cli → src/app): each command's parsing, where it has logic, gives the
 * typed request the use case takes, and refuses what makes no sense before anything is read or run.
 */
import { describe, expect, it } from 'vitest';
import { BUDGET_FLAG_KEYS, budgetFromFlags } from '../../src/cli/input.js';
import { serveRequest } from '../../src/cli/serve.js';
import { simulateRequest } from '../../src/cli/simulate.js';
import { statusRequest } from '../../src/cli/status.js';
import { BUDGET_FLAGS, DEFAULT_BUDGET_LIMITS, UsageError } from '../../src/model/index.js';

describe('budget flags', () => {
  it("each limit's key is the one commander stores its flag under", () => {
    for (const [limit, flag] of Object.entries(BUDGET_FLAGS)) {
      const camel = flag.replace(/^--/, '').replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
      expect(BUDGET_FLAG_KEYS[limit as keyof typeof BUDGET_FLAG_KEYS]).toBe(camel);
    }
  });

  it('sizes, counts and durations become the limits; the rest keep their defaults', () => {
    const budget = budgetFromFlags({ maxDecompressed: '8GiB', maxTreeNodes: '1000', maxDiffTime: '2m' });
    expect(budget.limits).toEqual({
      ...DEFAULT_BUDGET_LIMITS,
      decompressedBytes: 8 * 1024 ** 3,
      treeNodes: 1000,
      textDiffMillis: 120_000,
    });
  });

  it.each([
    [{ maxDecompressed: 'lots' }, /--max-decompressed "lots" is not a size/],
    [{ maxTreeDepth: '1.5' }, /--max-tree-depth "1.5" is not a positive whole number/],
    [{ maxDiffTime: '-1s' }, /--max-diff-time "-1s" is not a duration/],
    [{ maxDataUrl: '0' }, /--max-data-url "0" is not a size/],
  ])('%o is a usage error', (flags, message) => {
    expect(() => budgetFromFlags(flags)).toThrow(UsageError);
    expect(() => budgetFromFlags(flags)).toThrow(message);
  });
});

const sim = { scenario: 'pause-image-only', seed: '1', output: 'text' as const };

describe('simulate flags', () => {
  it.each([
    [{}, { kind: 'run' }],
    [{ runs: '50' }, { kind: 'seeds', runs: 50 }],
    [{ exhaustive: true as const }, { kind: 'model-check', budget: 2_000_000, keepGoing: false }],
    [
      { exhaustive: true as const, keepGoing: true as const, budget: '10' },
      { kind: 'model-check', budget: 10, keepGoing: true },
    ],
    [
      { exhaustive: true as const, raceWindow: true as const },
      { kind: 'race-window', budget: 20_000 },
    ],
    [{ schedule: '3, 0,1' }, { kind: 'run', schedule: [3, 0, 1] }],
    [
      { schedule: 'mco/sync,cvo/reconcile' },
      { kind: 'model-replay', schedule: ['mco/sync', 'cvo/reconcile'] },
    ],
  ])('%o is mode %o', (flags, mode) => {
    expect(simulateRequest({ ...sim, ...flags })).toEqual({ scenario: 'pause-image-only', seed: 1, mode });
  });

  it('carries the policy and the artifacts folder as given', () => {
    expect(simulateRequest({ ...sim, seed: '7', policy: 'fixed', artifacts: 'run-7' })).toEqual({
      scenario: 'pause-image-only',
      policy: 'fixed',
      seed: 7,
      mode: { kind: 'run' },
      artifacts: 'run-7',
    });
  });

  it.each([
    [{ seed: 'x' }, /--seed wants a whole number/],
    [{ seed: String(2 ** 32) }, /--seed must be at most 4294967295/],
    [{ seed: String(2 ** 32 - 1), runs: '2' }, /goes past the largest seed/],
    [{ runs: '0' }, /--runs must be at least 1/],
    [{ budget: '5' }, /--budget needs --exhaustive/],
    [{ raceWindow: true as const }, /--race-window needs --exhaustive/],
    [
      { exhaustive: true as const, raceWindow: true as const, keepGoing: true as const },
      /--keep-going needs/,
    ],
    [{ exhaustive: true as const, runs: '3' }, /--runs and --exhaustive explore different things/],
    [{ runs: '3', schedule: '1,2' }, /--schedule replays one run/],
    [{ schedule: '1,mco/sync' }, /--schedule wants comma-separated step names/],
  ])('%o is a usage error', (flags, message) => {
    expect(() => simulateRequest({ ...sim, ...flags })).toThrow(UsageError);
    expect(() => simulateRequest({ ...sim, ...flags })).toThrow(message);
  });
});

const served = { port: '0', bind: '127.0.0.1' };

describe('serve flags', () => {
  it('the defaults: no replay, speed 1, a free port on 127.0.0.1, no wait', () => {
    expect(serveRequest(['run'], served)).toEqual({
      request: { inputs: ['run'], replay: false, speed: 1, port: 0, bind: '127.0.0.1', serveSecrets: false },
      startAfterMs: 0,
    });
  });

  it('a replay at 60× after 2.5 s, a moment, a guest', () => {
    const r = serveRequest(['dump'], {
      ...served,
      replay: true as const,
      speed: '60',
      startAfter: '2.5',
      port: '8443',
      guest: 'hc1',
    });
    expect(r).toEqual({
      request: {
        inputs: ['dump'],
        guest: 'hc1',
        replay: true as const,
        speed: 60,
        port: 8443,
        bind: '127.0.0.1',
        serveSecrets: false,
      },
      startAfterMs: 2500,
    });
    expect(serveRequest(['run'], { ...served, at: '2021-11-03T03:25:00Z' }).request.at).toBe(
      Date.parse('2021-11-03T03:25:00Z'),
    );
  });

  it.each([
    [{ speed: '5' }, /--speed needs --replay/],
    [{ replay: true as const, speed: '0x10' }, /--speed "0x10": expected a positive number/],
    [{ replay: true as const, startAfter: '1e3' }, /--start-after "1e3": expected a number of seconds/],
    [{ port: '70000' }, /--port "70000": expected 0-65535/],
    [{ replay: true as const, at: '2021-11-03T03:25:00Z' }, /--at and --replay cannot be combined/],
    [{ at: 'yesterday' }, /--at "yesterday" is not a time/],
  ])('%o is a usage error', (flags, message) => {
    expect(() => serveRequest(['run'], { ...served, ...flags })).toThrow(UsageError);
    expect(() => serveRequest(['run'], { ...served, ...flags })).toThrow(message);
  });
});

describe('status flags', () => {
  const text = { output: 'text' as const };

  it('files, a moment (--at or its alias --now), a hosted cluster', () => {
    expect(statusRequest(['mg'], text)).toEqual({ inputs: ['mg'] });
    const at = Date.parse('2021-11-03T03:30:00Z');
    expect(statusRequest(['mg'], { ...text, now: '2021-11-03T03:30:00Z' })).toEqual({ inputs: ['mg'], at });
    expect(
      statusRequest(['mg'], { ...text, at: '2021-11-03T03:30:00Z', hostedCluster: 'clusters/hc1' }),
    ).toEqual({
      inputs: ['mg'],
      at,
      hostedCluster: 'clusters/hc1',
    });
  });

  it('a live management cluster and its hosted cluster, with one request deadline', () => {
    expect(
      statusRequest([], {
        ...text,
        kubeconfig: 'mgmt.kc',
        context: 'admin',
        guestKubeconfig: 'guest.kc',
        requestTimeout: '1m30s',
      }),
    ).toEqual({
      inputs: [],
      live: { kubeconfig: 'mgmt.kc', context: 'admin', requestTimeoutMs: 90_000 },
      guest: { kubeconfig: 'guest.kc', requestTimeoutMs: 90_000 },
    });
    expect(statusRequest([], { ...text, live: true })).toEqual({ inputs: [], live: {} });
  });

  it.each([
    [[], {}, /no input given/],
    [[''], {}, /an input path is empty/],
    [
      ['mg'],
      { at: '2021-11-03T03:30:00Z', now: '2021-11-03T03:31:00Z' },
      /--at and --now are the same option/,
    ],
    [['mg'], { guestKubeconfig: 'g.kc' }, /--guest-kubeconfig goes with --kubeconfig/],
    [['mg'], { kubeconfig: 'kc' }, /give input paths or --kubeconfig, not both/],
    [[], { live: true as const, requestTimeout: 'soon' }, /--request-timeout "soon" is not a duration/],
  ])('%o %o is a usage error', (paths, flags, message) => {
    expect(() => statusRequest(paths, { ...text, ...flags })).toThrow(UsageError);
    expect(() => statusRequest(paths, { ...text, ...flags })).toThrow(message);
  });
});
