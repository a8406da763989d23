import { describe, expect, it } from 'vitest';
import { main } from '../src/cli/main.js';

describe('atlevel CLI', () => {
  it('prints help and exits 0', async () => {
    expect(await main(['--help'])).toBe(0);
  });
  it('exits 2 on an unknown command', async () => {
    expect(await main(['no-such-command'])).toBe(2);
  });
});
