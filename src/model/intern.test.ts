import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { detach } from './intern.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

describe('detach', () => {
  it('keeps the text, and not the string it was cut from', () => {
    gc();
    const before = process.memoryUsage().heapUsed;
    const kept: string[] = [];
    for (let i = 0; i < 200; i++) {
      const parent = `${i}:`.padEnd(1_000_000, 'x') + i;
      const cut = parent.slice(1, 40);
      kept.push(detach(cut));
      expect(kept[i]).toBe(cut);
    }
    gc();
    // 200 parents are 200 MB; 200 detached copies are a few kB.
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(20_000_000);
    expect(detach('short')).toBe('short');
    expect(detach('')).toBe('');
  });
});
