import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeHistory } from '../../src/analyze/index.js';
import { renderAnalysisJson } from '../../src/report/analyze-json.js';
import { renderAnalysisJunit } from '../../src/report/analyze-junit.js';
import { renderAnalysisText } from '../../src/report/analyze-text.js';
import { projectRoot } from '../helpers/fixtures.js';
import { loadHistory } from '../helpers/load.js';

const GOLDEN = join(projectRoot, 'test/fixtures/analyze');

/** Golden files: set UPDATE_GOLDEN=1 to rewrite them after an intended change, then review the diff. */
function golden(name: string, actual: string): void {
  const file = join(GOLDEN, name);
  if (process.env.UPDATE_GOLDEN || !existsSync(file)) {
    mkdirSync(GOLDEN, { recursive: true });
    writeFileSync(file, actual);
  }
  expect(actual).toBe(readFileSync(file, 'utf8'));
}

async function analyzeExample(name: string) {
  const cwd = process.cwd();
  process.chdir(projectRoot); // refs keep the path as given; a relative one keeps goldens portable
  try {
    return analyzeHistory(await loadHistory([`examples/${name}`]));
  } finally {
    process.chdir(cwd);
  }
}

describe('the bundled bug-2019850 example', () => {
  let result: Awaited<ReturnType<typeof analyzeExample>>;
  beforeAll(async () => {
    result = await analyzeExample('bug-2019850');
  });

  it('fails the master-pool invariant at the CVO completion, with the pool state and its real finish', () => {
    expect(result.verdict).toBe('fail');
    const f = result.findings.find((x) => x.rule === 'master-pool-updated-before-cvo-complete');
    expect(f?.severity).toBe('failure');
    expect(f?.summary).toMatch(
      /complete at 03:23:32\.585 while the master pool was Updated=False, Updating=True/,
    );
    expect(f?.summary).toContain('rolling to rendered-master-08a4fea83290e0724cc703711035136d');
    expect(f?.summary).toMatch(/the pool finished at 03:28:26/);
  });

  it('explains it: the kubelet.service pause image, component pod, and the bug-1999556 signature', () => {
    const f = result.findings.find((x) => x.rule === 'master-pool-updated-before-cvo-complete');
    const diff = f?.explanation?.configDiff;
    expect(diff?.from).toBe('rendered-master-5d1c05288d1145e269c312e9826eddc6');
    expect(diff?.to).toBe('rendered-master-08a4fea83290e0724cc703711035136d');
    const kubelet = diff?.changes.find((c) => c.part === 'units' && c.name === 'kubelet.service');
    expect(kubelet?.changedLines?.[0]?.after).toContain('--pod-infra-container-image=');
    expect(kubelet?.images?.map((i) => i.component)).toEqual(['pod']);
    expect(f?.explanation?.signature?.id).toBe('bug-1999556');
  });

  it('flags the operator level report 3-4 s before the new rendered config', () => {
    const f = result.findings.find((x) => x.rule === 'operator-level-before-required-pool-target');
    expect(f?.severity).toBe('failure');
    expect(f?.summary).toContain('03:23:19.114');
    expect(f?.summary).toContain('rendered at 03:23:22, 3–4s after');
  });

  it('prints the same in text, and keeps its JSON and JUnit reports stable (golden files)', () => {
    const text = renderAnalysisText(result, { colour: false });
    for (const needle of [
      'FAIL',
      'master-pool-updated-before-cvo-complete',
      'Updated=False, Updating=True',
      'rendered-master-08a4fea83290e0724cc703711035136d',
      'unit kubelet.service modified',
      '--pod-infra-container-image=',
      'image pod: sha256:ef6684475a8f… → sha256:0adaefcf3675…',
      'Signature bug-1999556',
    ]) {
      expect(text).toContain(needle);
    }
    golden('bug-2019850.txt', text);
    golden('bug-2019850.json', renderAnalysisJson(result));
    golden('bug-2019850.junit.xml', renderAnalysisJunit(result));
  });
});

describe('the clean counterpart', () => {
  it('violates no invariant', async () => {
    const result = await analyzeExample('bug-2019850-fixed');
    expect(result.findings.filter((f) => f.severity === 'failure')).toEqual([]);
    // a simulator run carries the workloads too, so every rule that applies is checked
    expect(result.verdict).toBe('pass');
  });
});
