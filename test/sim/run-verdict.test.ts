/**
 * simulate's verdict names the rules behind it by analyze's own tests (src/app/run-verdict.ts): a rule
 * that held on too little of what it judges makes the run INCONCLUSIVE and is named in text and JSON,
 * as a rule not checked is. No built-in scenario's run is thin, so the thin analysis comes from the
 * snapshot analyze's own tests use (test/analyze/partial-evidence.test.ts).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeHistory } from '../../src/analyze/index.js';
import { runVerdictOf } from '../../src/app/run-verdict.js';
import { simulate } from '../../src/app/simulate.js';
import { simulationDocument } from '../../src/report/sim-json.js';
import { renderSimulationText } from '../../src/report/sim-text.js';
import { projectRoot } from '../helpers/fixtures.js';
import { loadHistory } from '../helpers/load.js';

const DAY2 = join(projectRoot, 'test/fixtures/analyze/day2-kubeletconfig-after-update');
const RULE = 'clusteroperator-level-then-progressing';

describe("simulate's verdict is analyze's, with its reasons", () => {
  it('a thin holds is named: INCONCLUSIVE with how little, thinRules in JSON; a simulated run has none', async () => {
    const verdict = runVerdictOf(analyzeHistory(await loadHistory([DAY2])));
    expect(verdict).toEqual({
      verdict: 'inconclusive',
      violated: [],
      notChecked: ['operator-level-before-operands'],
      thin: [{ rule: RULE, of: 'operators', checked: 1, total: 29 }],
    });

    const { report } = await simulate({ scenario: 'pause-image-only', seed: 1, mode: { kind: 'run' } });
    if (report.mode !== 'run') throw new Error(report.mode);
    expect(report.verdict.thin).toEqual([]);
    const doc = simulationDocument(report) as { thinRules?: unknown };
    expect(doc.thinRules).toEqual([]);

    const both = { ...report, verdict };
    expect(renderSimulationText(both, { colour: false })).toContain(
      `INCONCLUSIVE  analyze's verdict on the run it wrote: operator-level-before-operands could not be checked and ${RULE} (1 of 29 operators) held on too little of what it applies to\n`,
    );
    expect((simulationDocument(both) as { thinRules?: unknown }).thinRules).toEqual(verdict.thin);
    // Thin alone: it read "INCONCLUSIVE …:  could not be checked", naming nothing.
    const thin = { ...report, verdict: { ...verdict, notChecked: [] } };
    expect(renderSimulationText(thin, { colour: false })).toContain(
      `INCONCLUSIVE  analyze's verdict on the run it wrote: ${RULE} (1 of 29 operators) held on too little of what it applies to\n`,
    );
  }, 60_000);
});
