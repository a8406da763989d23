/**
 * The component sentence of `atlevel stats` (text and HTML): the unchanged components that matter for
 * the race, machine-config-operator and the OS image, are named; the others are not.
 */
import { describe, expect, it } from 'vitest';
import { statsHtml } from '../../src/stats/html.js';
import type { ComponentRow } from '../../src/stats/index.js';
import { componentSentence, unchangedThatMatters } from '../../src/stats/text.js';

const RACE = 'master-pool-updated-before-cvo-complete';
const row = (
  fix: ComponentRow['fix'],
  runs: number,
  race: number,
  unchanged: string,
  changed = 'pod',
): ComponentRow => ({
  changed,
  unchanged,
  fix,
  runs,
  race,
  notChecked: 0,
});

describe('the component sentence', () => {
  it('names machine-config-operator and the OS image among the unchanged, and only them', () => {
    const unchanged =
      'baremetal-runtimecfg+machine-config-operator+machine-os-content+machine-os-content-extensions';
    expect(componentSentence([row('absent', 12, 5, unchanged), row('present', 9, 0, unchanged)], RACE)).toBe(
      'pod image changed, machine-config-operator and OS image (machine-os-content) unchanged → race in 5 of 12 runs before the fix, 0 of 9 after',
    );
  });

  it('says only the one that stayed put, and nothing when neither did', () => {
    expect(unchangedThatMatters('machine-config-operator')).toBe('machine-config-operator');
    expect(unchangedThatMatters('baremetal-runtimecfg+rhel-coreos')).toBe('OS image (rhel-coreos)');
    expect(unchangedThatMatters('baremetal-runtimecfg')).toBe('');
    expect(unchangedThatMatters('unknown')).toBe('');
    expect(
      componentSentence([row('absent', 1, 1, 'baremetal-runtimecfg', 'machine-os-content+pod')], RACE),
    ).toBe('machine-os-content, pod images changed → race in 1 of 1 run before the fix');
    expect(componentSentence([row('unknown', 3, 0, 'unknown', 'unknown')], 'update-completed')).toBe(
      'unknown (no release info) changed → update-completed in 0 of 3 runs with no rendered configs to tell',
    );
  });

  it('the HTML table shows the same names, the full list on hover', () => {
    const html = statsHtml({
      store: 's',
      filter: {},
      runs: 1,
      firstRun: null,
      lastRun: null,
      ingestErrors: 0,
      errors: [],
      rates: [],
      signatures: [],
      raceRule: RACE,
      components: [row('absent', 2, 2, 'baremetal-runtimecfg+machine-config-operator+machine-os-content')],
      updateMs: { n: 0, p50: null, p90: null, p99: null, max: null },
      levelGapMs: [],
      rolloutMs: [],
      operatorLevelMs: [],
      source: 'summary',
      percentileBucketMs: 1000,
    });
    expect(html).toContain(
      '<td title="baremetal-runtimecfg, machine-config-operator, machine-os-content">machine-config-operator and OS image (machine-os-content)</td>',
    );
  });
});
