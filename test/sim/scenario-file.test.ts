import fc from 'fast-check';
import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/model/errors.js';
import { runSimulation } from '../../src/sim/run.js';
import { loadScenarioFile, parseDuration, parseScenario } from '../../src/sim/scenario-file.js';

const dir = 'test/fixtures/sim';

describe('scenario files', () => {
  it('reads a small cluster on top of a built-in scenario', async () => {
    const s = await loadScenarioFile(`${dir}/two-node-pause-image.yaml`);
    expect(s.name).toBe('two-node-pause-image');
    expect(s.pools.map((p) => [p.name, p.nodes])).toEqual([
      ['master', 1],
      ['worker', 1],
    ]);
    expect(s.to.digests?.pod).toBe('0adaefcf3675fa153e7d3917c7a24563e9da81922cac6c3eed3edd4b57bf98bb');
    const run = runSimulation(s, 'pre-fix-2021', 1);
    expect([...run.store.list('Node')]).toHaveLength(2);
    expect(run.facts.violation).toBe(true);
  });

  it('reads custom pools, user MachineConfigs, failures and latency overrides', async () => {
    const s = await loadScenarioFile(`${dir}/infra-pool.yaml`);
    expect(s.pools.find((p) => p.name === 'worker')?.maxUnavailable).toBe('50%');
    expect(s.failures).toEqual([
      {
        pool: 'worker',
        index: 0,
        reason: 'failed to drain node (5 tries): timed out waiting for the condition, updating to {config}',
        recoverAfterMs: 180_000,
      },
    ]);
    expect(s.latencies.boot).toEqual({ kind: 'lognormal', median: 90_000, sigma: 0.2 });
    expect(s.latencies.drainWorker).toEqual({ kind: 'lognormal', median: 40_000, sigma: 0.3, max: 180_000 });
    expect(s.latencies.watch).toEqual({ kind: 'uniform', min: 5, max: 80 });
    expect(s.latencies.renderDelay).toEqual({ kind: 'const', ms: 5000 });
    const run = runSimulation(s, 'fixed', 2);
    const infra = run.store.get('MachineConfigPool', 'infra');
    expect(infra?.status.machineCount).toBe(2);
    expect(infra?.spec.source).toContain('99-infra-chrony');
    expect(infra?.spec.source).toContain('00-worker');
    expect(run.facts.violation).toBe(false);
  });

  it.each([
    ['bad-component.yaml', /invalid scenario: changed\[1\]: unknown release component/],
    ['bad-pools.yaml', /invalid scenario: pools: a master pool is required/],
    [
      'bad-duration.yaml',
      /invalid scenario: latencies\.renderDelay: duration: expected a duration like 250ms, 5s or 2m, got "five seconds"/,
    ],
    ['bad-yaml.yaml', /invalid YAML: .* at line 3/],
    ['no-such-file.yaml', /no such file or directory/],
  ])('%s is refused with one line naming the file', async (name, problem) => {
    const err = await loadScenarioFile(`${dir}/${name}`).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).file).toBe(`${dir}/${name}`);
    expect((err as InputError).problem).toMatch(problem);
    expect((err as InputError).message).not.toContain('\n');
  });

  it("names a pool's nodes and lays the artifacts out under the scenario's CI test", () => {
    const doc = {
      name: 'named',
      base: 'pause-image-only',
      ci: { target: 'e2e-aws-upgrade' },
      pools: [
        { name: 'master', nodes: 1, names: ['ip-10-0-139-12.us-east-2.compute.internal'] },
        { name: 'worker', nodes: 1 },
      ],
    };
    const s = parseScenario(yaml.dump(doc), 'named.yaml');
    expect(s.ciTarget).toBe('e2e-aws-upgrade');
    const nodes = [...runSimulation(s, 'fixed', 1).store.list('Node')].map((n) => n.meta.name);
    expect(nodes).toContain('ip-10-0-139-12.us-east-2.compute.internal');
    expect(nodes).toHaveLength(2);
  });

  it.each([
    [{ name: 'master', nodes: 2, names: ['a'] }, /pools\[0\]\.names: pool master has 2 nodes but 1 name/],
    [{ name: 'master', nodes: 2, names: ['a', 'a'] }, /pools\[0\]\.names: node a is named twice/],
    [
      { name: 'master', nodes: 1, names: ['Not_A_Name'] },
      /pools\[0\]\.names\[0\]: a node name is a DNS subdomain/,
    ],
  ])('refuses node names that do not fit the pool: %j', (master, problem) => {
    const doc = { name: 'bad', pools: [master, { name: 'worker', nodes: 1 }] };
    expect(() => parseScenario(yaml.dump(doc), 'bad.yaml')).toThrow(problem);
  });

  it('rejects failures that point at no node', () => {
    const text =
      'name: x\npools: [{name: master, nodes: 3}, {name: worker, nodes: 1}]\nfailures: [{pool: worker, index: 1}]\n';
    expect(() => parseScenario(text, 'x.yaml')).toThrow(/failures\[0\]\.index: pool worker has only 1 node/);
  });

  it('never throws anything but InputError on arbitrary documents (fuzz)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (doc) => {
        const text = yaml.dump({
          name: 'fuzz',
          ...(typeof doc === 'object' && doc !== null && !Array.isArray(doc) ? doc : { pools: doc }),
        });
        try {
          parseScenario(text, 'fuzz.yaml');
        } catch (err) {
          expect(err).toBeInstanceOf(InputError);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('parses durations', () => {
    expect(parseDuration('250ms')).toBe(250);
    expect(parseDuration('5s')).toBe(5000);
    expect(parseDuration('1.5m')).toBe(90_000);
    expect(parseDuration('2h')).toBe(7_200_000);
    expect(parseDuration(42)).toBe(42);
    expect(parseDuration('5 seconds')).toBeUndefined();
    expect(parseDuration(-1)).toBeUndefined();
    fc.assert(
      fc.property(
        fc.nat(1_000_000),
        (n) => parseDuration(`${n}ms`) === n && parseDuration(`${n}s`) === n * 1000,
      ),
    );
  });
});
