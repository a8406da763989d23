import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expect } from 'vitest';
import { projectRoot } from '../helpers/fixtures.js';

export const goldenDir = join(projectRoot, 'test/fixtures/report-html');

/**
 * Compare `actual` with the golden file `name` under test/fixtures/report-html/. `UPDATE_GOLDEN=1`
 * rewrites it; reviewers then read the diff.
 */
export function expectGolden(name: string, actual: string): void {
  const file = join(goldenDir, name);
  if (process.env.UPDATE_GOLDEN === '1' || !existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, actual);
    if (process.env.UPDATE_GOLDEN !== '1')
      throw new Error(`wrote missing golden ${name}; check it and run again`);
    return;
  }
  expect(actual, `${name} differs from its golden; UPDATE_GOLDEN=1 rewrites it`).toBe(
    readFileSync(file, 'utf8'),
  );
}
