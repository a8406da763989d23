/** docs/diff-json.md documents every key the JSON reporters write, and every part of a change. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { diffMachineConfigs, PART_ORDER } from '../../src/machineconfig/diff.js';
import type { MachineConfig } from '../../src/model/objects.js';
import { diffReleases } from '../../src/release/diff.js';
import { renderDiffJson } from '../../src/report/diff-json.js';
import { renderReleaseDiffJson, renderReleaseInfoJson } from '../../src/report/release-json.js';
import { loadReleasePayload } from '../../src/sources/index.js';
import { projectRoot } from '../helpers/fixtures.js';

const doc = readFileSync(join(projectRoot, 'docs/diff-json.md'), 'utf8');
const documented = (key: string) => doc.includes(`\`${key}\``);
const F = join(projectRoot, 'test/fixtures/machineconfig');

describe('docs/diff-json.md', () => {
  it('documents every top-level key and every change key of atlevel diff -o json', async () => {
    const configs = JSON.parse(readFileSync(join(F, 'bug-2019850-machineconfigs.json'), 'utf8'))
      .items as MachineConfig[];
    const from = await loadReleasePayload(
      join(F, 'image-references-4.10.0-0.nightly-2021-11-02-191632.json'),
    );
    const to = await loadReleasePayload(join(F, 'image-references-4.10.0-0.nightly-2021-11-03-020416.json'));
    const d = diffMachineConfigs(configs[0]!, configs[2]!, { releases: { from, to }, only: ['units'] });
    const json = JSON.parse(
      renderDiffJson(d, { releases: { from, to }, selection: { mode: 'pool', pool: 'master' } }),
    );
    for (const key of Object.keys(json)) expect(documented(key), key).toBe(true);
    for (const key of Object.keys(json.changes[0])) expect(documented(key), key).toBe(true);
    for (const part of PART_ORDER) expect(documented(part), part).toBe(true);
  });

  it('documents every key of the release JSON', async () => {
    const from = await loadReleasePayload(
      join(F, 'image-references-4.10.0-0.nightly-2021-11-02-191632.json'),
    );
    const to = await loadReleasePayload(join(F, 'image-references-4.10.0-0.nightly-2021-11-03-020416.json'));
    const d = JSON.parse(renderReleaseDiffJson(diffReleases(from, to)));
    for (const key of Object.keys(d)) expect(documented(key), key).toBe(true);
    for (const key of Object.keys(d.changed[0])) expect(documented(key), key).toBe(true);
    for (const key of Object.keys(d.changed[0].after)) expect(documented(key), key).toBe(true);
    const info = JSON.parse(renderReleaseInfoJson(to));
    for (const key of Object.keys(info)) expect(documented(key), key).toBe(true);
  });
});
