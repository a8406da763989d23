/**
 * No race rule fails on oc's example snapshots (issue 37): each case is a cluster at one moment, whose
 * ClusterVersion history reaches back months and whose rendered configs may date from long after the
 * updates in that history. The rules judge each update by its own config (docs/domain.md 3.3.1) and say
 * "not checked" when the snapshot does not identify it, never "violated".
 */
import { expect, it } from 'vitest';
import { analyzeHistory } from '../../src/analyze/index.js';
import { describeFixtures, fixture, OC_STATUS_CASES, OC_STATUS_EXAMPLES } from '../helpers/fixtures.js';
import { loadHistory } from '../helpers/load.js';

const RACE_RULES = ['master-pool-updated-before-cvo-complete', 'operator-level-before-required-pool-target'];

describeFixtures('the race rules on the oc example cases', () => {
  it.each(OC_STATUS_CASES)('%s: read, and no race rule violated', async (name) => {
    const result = analyzeHistory(await loadHistory([fixture(OC_STATUS_EXAMPLES, name)]));
    for (const id of RACE_RULES) {
      const outcome = result.outcomes.find((o) => o.rule.id === id);
      expect(outcome, id).toBeDefined();
      expect(outcome?.state, `${name}: ${id}: ${outcome?.reason ?? ''}`).not.toBe('violated');
    }
  });
});
