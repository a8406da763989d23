/**
 * watch's `complete` carries each rule's coverage as analyze does (docs/analyze-json.md `coverage`):
 * a rule that held on part of what it judges never reads as a plain holds, in -o json or in text.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeHistory } from '../../src/analyze/index.js';
import { jsonLine, textLine } from '../../src/watch/index.js';
import { projectRoot } from '../helpers/fixtures.js';
import { loadHistory } from '../helpers/load.js';

/** A snapshot whose clusteroperator-level-then-progressing holds for 1 of 29 operators (test/analyze/partial-evidence.test.ts). */
const DAY2 = join(projectRoot, 'test/fixtures/analyze/day2-kubeletconfig-after-update');
const FIXED = join(projectRoot, 'examples/bug-2019850-fixed');
const RULE = 'clusteroperator-level-then-progressing';

async function complete(path: string) {
  const history = await loadHistory([path]);
  return { type: 'complete' as const, at: Date.UTC(2021, 10, 3), result: analyzeHistory(history), history };
}

describe('watch: complete with partial coverage', () => {
  it('-o json: each rule has the coverage analyze -o json gives it; text names the rule and how little it checked', async () => {
    const o = await complete(DAY2);
    const line = JSON.parse(jsonLine(o)) as {
      verdict: string;
      rules: { id: string; state: string; coverage: Record<string, unknown> | null }[];
    };
    expect(line.verdict).toBe('inconclusive');
    const rule = line.rules.find((r) => r.id === RULE);
    expect(rule?.state).toBe('holds');
    expect(rule?.coverage).toMatchObject({ of: 'operators', checked: 1, total: 29, enough: false });
    expect(rule?.coverage?.notChecked).toHaveLength(28);
    expect(line.rules.find((r) => r.id === 'update-completed')?.coverage).toBeNull();
    expect(textLine(o, false)).toMatch(
      new RegExp(
        `update complete: verdict inconclusive; 1 rule on part of what it applies to: ${RULE} holds for 1 of 29 operators, too little to count$`,
      ),
    );
  });

  it('a run that covers everything: coverage null for every rule, the text line as before', async () => {
    const o = await complete(FIXED);
    const line = JSON.parse(jsonLine(o)) as { rules: { coverage: unknown }[] };
    expect(line.rules.every((r) => r.coverage === null)).toBe(true);
    expect(textLine(o, false)).toMatch(/update complete: verdict pass$/);
  });
});
