/**
 * The docs the code already says stay what the code says: the README's rule table (the rule record)
 * and every command's arguments and flags (the command definitions), written by `npm run docs:gen`
 * (scripts/docs-gen.ts). A rule or a flag added without regenerating fails here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generatedDocs } from '../../scripts/docs-gen.js';
import { RULES } from '../../src/invariants/index.js';
import { projectRoot } from '../helpers/fixtures.js';

describe('generated docs', () => {
  it('match the code: run npm run docs:gen after changing a rule or a flag', async () => {
    for (const [file, text] of await generatedDocs()) {
      expect(
        readFileSync(join(projectRoot, file), 'utf8'),
        `${file} is out of date: run npm run docs:gen`,
      ).toBe(text);
    }
  });

  it('list every rule in the README, and every command with its flags', async () => {
    const docs = await generatedDocs();
    const readme = docs.get('README.md') ?? '';
    for (const r of RULES) expect(readme).toContain(`[\`${r.info.id}\`](${r.info.doc})`);
    const commands = docs.get('docs/commands.md') ?? '';
    for (const heading of [
      '## atlevel analyze',
      '## atlevel release diff',
      '## atlevel cache prune',
      '## atlevel stats',
    ])
      expect(commands).toContain(heading);
    expect(commands).toMatch(/\| `--width <columns>` \| text output: wrap/);
    // Written for a user whose home is ~, not the machine that ran the generator.
    expect(commands).not.toContain(process.env.HOME ?? '/nonexistent-home');
  });
});
