import { describe, expect, it } from 'vitest';
import { Budget } from './budget.js';

describe('Budget errors', () => {
  it('name a limit under 1 MiB in bytes, not "0 MiB"', () => {
    const budget = new Budget({ decompressedBytes: 10 });
    expect(() => budget.chargeDecompressed(11, 'f.gz')).toThrow(
      /limit of 10 bytes \(raise it with --max-decompressed/,
    );
    expect(() => new Budget({ dataUrlBytesPerConfig: 1 }).over('dataUrlBytesPerConfig', 'f')).toThrow(
      /limit of 1 byte \(/,
    );
  });
  it('keep MiB and GiB for larger limits', () => {
    expect(() => new Budget().over('dataUrlBytesPerConfig', 'f')).toThrow(/limit of 256 MiB/);
    expect(() => new Budget().over('decompressedBytes', 'f')).toThrow(/limit of 4 GiB/);
  });
});
