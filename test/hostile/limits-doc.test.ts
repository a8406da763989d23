/** docs/limits.md names every budget limit with its flag and default (issue 10, "Must show"). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUDGET_FLAGS } from '../../src/model/budget.js';

const DOC = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'limits.md'), 'utf8');

describe('docs/limits.md', () => {
  it.each(Object.entries(BUDGET_FLAGS))(
    'documents %s and its flag %s in the budget table',
    (_limit, flag) => {
      expect(DOC).toMatch(new RegExp(`^\\| [^|]+ \\| \`${flag}\` \\| [^|]+ \\|`, 'm'));
    },
  );
});
