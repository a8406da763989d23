/**
 * An update still in progress at the end of the inputs: the operators it had not reached have not
 * reported level, so the level rules cannot judge them yet. They are members the rule did not check,
 * never members that held (docs/rules/clusteroperator-level-then-progressing.md): a holds on the few
 * that had reported is too little to carry a PASS, and says why the rest were not checked.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeHistory } from '../../src/analyze/index.js';
import { renderAnalysisJson } from '../../src/report/analyze-json.js';
import { renderAnalysisText } from '../../src/report/analyze-text.js';
import { projectRoot } from '../helpers/fixtures.js';
import { loadHistory } from '../helpers/load.js';

// examples/bug-2019850-fixed's run cut at 03:03:00 (test/fixtures/README.md): config-operator, etcd and
// kube-apiserver had reported the new version (monitor lines), the 26 others had not.
const CUT = join(projectRoot, 'test/fixtures/analyze/midupdate-cut-short');
const RULE = 'clusteroperator-level-then-progressing';
const NEW = '4.10.0-0.nightly-2021-11-03-020416';
const OLD = '4.10.0-0.nightly-2021-11-02-191632';

describe('a run cut short mid-update: operators not yet at the target are not checked', () => {
  it('holds for 3 of 29 operators, the 26 others not yet at the target; too little for a PASS', async () => {
    const r = analyzeHistory(await loadHistory([CUT]), { rules: [RULE] });
    const o = r.outcomes.find((x) => x.rule.id === RULE);
    expect(o?.state).toBe('holds');
    expect(o?.missing).toEqual([]);
    expect(o?.coverage).toMatchObject({ of: 'operators', checked: 3, total: 29, enough: false });
    expect(o?.coverage?.notYet).toHaveLength(26);
    expect(o?.coverage?.notYet).toContain('kube-scheduler');
    expect(o?.coverage?.notYet).not.toContain('etcd');
    // Not missing data: nothing an input of that moment could hold would date a report still to come.
    expect(o?.coverage?.needs).toEqual([]);
    expect(o?.coverage?.why).toContain(`not yet at ${NEW}`);
    expect(r.verdict).toBe('inconclusive');
    expect(r.verdictReason).toContain(`${RULE} (3 of 29 operators; 26 not yet at the target)`);

    const text = renderAnalysisText(r, { colour: false });
    expect(text).toMatch(
      new RegExp(
        `✓ ${RULE} +holds for 3 of 29 operators; 26 not checked: not yet at ${NEW.replaceAll('.', '\\.')}`,
      ),
    );
    expect(text).toContain('      not yet at the target: authentication, baremetal,');
    expect(text).not.toContain('      needs ');

    const json = JSON.parse(renderAnalysisJson(r)) as {
      rules: { id: string; coverage: { notChecked: string[]; notYet: string[]; enough: boolean } | null }[];
    };
    const cov = json.rules.find((x) => x.id === RULE)?.coverage;
    expect(cov?.notChecked).toHaveLength(26);
    expect(cov?.notYet).toEqual(cov?.notChecked);
    expect(cov?.enough).toBe(false);
  });

  it('an operator at the target with no dated report lacks data, apart from those not yet at it', async () => {
    // machine-config already at the target in the snapshot, with no monitor line: undated, not pending.
    const dir = mkdtempSync(join(tmpdir(), 'atlevel-midupdate-'));
    cpSync(CUT, dir, { recursive: true });
    const p = join(dir, 'clusteroperators.json');
    const cos = JSON.parse(readFileSync(p, 'utf8')) as {
      items: { metadata: { name: string }; status: { versions: { name: string; version: string }[] } }[];
    };
    for (const co of cos.items)
      if (co.metadata.name === 'machine-config')
        for (const v of co.status.versions) if (v.name === 'operator') v.version = NEW;
    writeFileSync(p, JSON.stringify(cos));
    const r = analyzeHistory(await loadHistory([dir]), { rules: [RULE] });
    const o = r.outcomes.find((x) => x.rule.id === RULE);
    expect(o?.coverage).toMatchObject({ checked: 3, total: 29, enough: false });
    expect(o?.coverage?.notYet).toHaveLength(25);
    expect(o?.coverage?.notYet).not.toContain('machine-config');
    expect(o?.coverage?.why).toMatch(/^1 with no level report time .*; 25 not yet at /);
    expect(o?.coverage?.needs).toHaveLength(1);
    const text = renderAnalysisText(r, { colour: false });
    expect(text).toContain('      not checked: machine-config\n');
  });

  it('before any operator reported the target: not applicable yet, no data missing', async () => {
    // The run cut at 02:51:00, before config-operator's report at 02:51:32.
    const dir = mkdtempSync(join(tmpdir(), 'atlevel-midupdate-'));
    cpSync(CUT, dir, { recursive: true });
    const log = join(dir, 'build-log.txt');
    writeFileSync(
      log,
      readFileSync(log, 'utf8')
        .split('\n')
        .filter((l) => !/^Nov (03| {2}3) 0(2:5[1-9]|3:)/.test(l))
        .join('\n'),
    );
    const p = join(dir, 'clusteroperators.json');
    writeFileSync(p, readFileSync(p, 'utf8').replaceAll(`"version": "${NEW}"`, `"version": "${OLD}"`));
    const r = analyzeHistory(await loadHistory([dir]), { rules: [RULE] });
    const o = r.outcomes.find((x) => x.rule.id === RULE);
    expect(o?.state).toBe('not-checked');
    expect(o?.missing).toEqual([]);
    expect(o?.reason).toContain(`no operator has reported ${NEW} yet`);
    expect(o?.reason).toContain('29 operators not yet at it');
  });

  it('a full run dates every report: no coverage, as before', async () => {
    const r = analyzeHistory(await loadHistory([join(projectRoot, 'examples/bug-2019850-fixed')]), {
      rules: [RULE],
    });
    expect(r.outcomes.find((x) => x.rule.id === RULE)?.coverage).toBeUndefined();
    expect(r.verdict).toBe('pass');
  });
});
