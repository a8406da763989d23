/**
 * docs/report.md's picture of the HTML report is of the bundled example (`npm run screenshots`,
 * scripts/screenshots.ts): its caption names the moments of the example's finding as the page marks
 * them, so a change to the example that moves them fails here until the picture and caption are made
 * again. The pictures stay small PNGs, and the package ships none.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { atlevelInProcess } from '../helpers/cli.js';
import { projectRoot } from '../helpers/fixtures.js';

const PICTURE = 'docs/img/report-bug-2019850.png';
const RULE = 'master-pool-updated-before-cvo-complete';

interface Moment {
  readonly label: string;
  readonly at: string;
}

describe(`docs/report.md's picture (${PICTURE})`, () => {
  it("the caption lists the example's finding moments, to the second, as the picture shows them", async () => {
    const r = await atlevelInProcess('analyze', join(projectRoot, 'examples/bug-2019850'), '-o', 'json');
    expect(r.status).toBe(1);
    const doc = JSON.parse(r.stdout) as { findings: { rule: string; moments: Moment[] }[] };
    const finding = doc.findings.find((f) => f.rule === RULE);
    if (!finding) throw new Error(`examples/bug-2019850 has no ${RULE} finding`);
    const report = readFileSync(join(projectRoot, 'docs/report.md'), 'utf8');
    const caption = report.slice(report.indexOf(`](img/report-bug-2019850.png)`));
    const moments = caption.slice(0, caption.indexOf('## ')).match(/^- \*(\d\d:\d\d:\d\d),/gm) ?? [];
    const times = [...finding.moments].map((m) => m.at.slice(11, 19)).sort();
    expect(moments.map((m) => m.slice(3, 11))).toEqual(times);
    expect(caption).toContain(`\`${RULE}\` finding`);
  });

  it("the docs' pictures are PNGs of at most 200 kB, and the package ships none", () => {
    // npm run screenshots makes both; docs/img/stats.png was a 507 kB full page before it took the top.
    for (const picture of [PICTURE, 'docs/img/stats.png']) {
      const bytes = readFileSync(join(projectRoot, picture));
      expect(bytes.subarray(1, 4).toString('latin1'), picture).toBe('PNG');
      expect(statSync(join(projectRoot, picture)).size, picture).toBeLessThanOrEqual(200_000);
    }
    const pkg = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { files: string[] };
    expect(pkg.files.filter((f) => !f.startsWith('!') && /docs|img|png/.test(f))).toEqual(['docs/**/*.md']);
  });
});
