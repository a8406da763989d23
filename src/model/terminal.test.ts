import { describe, expect, it } from 'vitest';
import { safeJson } from './terminal.js';

describe('safeJson', () => {
  const hostile = 'a\u001b]0;x\u0007\u009b2J\u202eevil\u007f\r';
  it('leaves no character a terminal acts on, and keeps the value', () => {
    const text = safeJson({ message: hostile });
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    expect(JSON.parse(text)).toEqual({ message: hostile });
  });
});
