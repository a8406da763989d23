/** `kubectl get co` on oc's seven upgrade-status snapshots lists what the files hold. */
import { readFileSync } from 'node:fs';
import yaml from 'js-yaml';
import { expect, it } from 'vitest';
import { describeFixtures, fixture, OC_STATUS_CASES } from '../helpers/fixtures.js';
import { hasKubectl, type Json, kubectl, NO_KUBECTL, serve } from './helpers.js';

const CASES = OC_STATUS_CASES;

const dir = () => fixture('openshift__oc/pkg/cli/admin/upgrade/status/examples');

function expected(file: string): string[] {
  const doc = yaml.load(readFileSync(file, 'utf8')) as Json;
  const items: Json[] = doc.items ?? [doc];
  const status = (o: Json, t: string) => o.status?.conditions?.find((c: Json) => c.type === t)?.status ?? '';
  return items
    .map((o) =>
      [
        o.metadata.name,
        o.status?.versions?.find((v: Json) => v.name === 'operator')?.version ?? '',
        status(o, 'Available'),
        status(o, 'Progressing'),
        status(o, 'Degraded'),
      ].join(' '),
    )
    .sort();
}

describeFixtures('kubectl get co on the oc examples', () => {
  for (const name of CASES) {
    it.skipIf(!hasKubectl)(`${name}${NO_KUBECTL}`, async () => {
      const server = await serve([`${dir()}/${name}`]);
      try {
        const table = await kubectl(server, ['get', 'co', '--no-headers']);
        expect(table.code, table.stderr).toBe(0);
        const got = table.stdout
          .trimEnd()
          .split('\n')
          .map((l) => {
            // NAME VERSION AVAILABLE PROGRESSING DEGRADED SINCE; VERSION may be empty.
            const cells = l.trim().split(/\s+/);
            const withVersion = cells.length === 6;
            return [
              cells[0],
              withVersion ? cells[1] : '',
              ...cells.slice(withVersion ? 2 : 1, withVersion ? 5 : 4),
            ].join(' ');
          })
          .sort();
        expect(got).toEqual(expected(`${dir()}/${name}-co.yaml`));
      } finally {
        await server.close();
      }
    });
  }
});
