import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RULES } from '../../src/invariants/index.js';
import { projectRoot } from '../helpers/fixtures.js';

describe('rules', () => {
  it('have unique stable ids and a doc page each', () => {
    const ids = RULES.map((r) => r.info.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const r of RULES) {
      expect(r.info.id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      const doc = join(projectRoot, r.info.doc);
      expect(existsSync(doc), doc).toBe(true);
      expect(readFileSync(doc, 'utf8')).toContain(`# ${r.info.id}`);
    }
  });
});
