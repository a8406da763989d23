import { describe, expect, it } from 'vitest';
import { formatRef } from './refs.js';

describe('formatRef', () => {
  it('a line of a text file', () => {
    expect(formatRef({ file: 'build-log.txt', line: 419 })).toBe('build-log.txt:419');
  });
  it('a path in a file with no lines worth pointing at', () => {
    expect(formatRef({ file: 'machineconfigs.json', path: 'items[7]' })).toBe('machineconfigs.json items[7]');
  });
  it('a path in the first YAML document: no line 1 that would point far from the item', () => {
    expect(formatRef({ file: 'x-co.yaml', line: 1, path: 'items[7]' })).toBe('x-co.yaml items[7]');
  });
  it('a path in a later YAML document names where that document starts', () => {
    expect(formatRef({ file: 'all.yaml', line: 57, path: 'items[3]' })).toBe(
      'all.yaml (document at line 57) items[3]',
    );
  });
});
