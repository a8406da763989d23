/**
 * The bytes of JSON syntax, for the two readers that scan a List's bytes without parsing them
 * (json-items.ts streams its items, items-index.ts finds where they and a few members lie), and
 * the sizes past which both keep an item's large members as bytes.
 */

/**
 * An item larger than this (a rendered MachineConfig) is parsed member by member (json-items.ts
 * parseLarge; quick-configs.ts cuts out the same members)…
 */
export const LARGE_ITEM_BYTES = 64 * 1024;
/** …down to pieces of at most this many bytes. */
export const PIECE_BYTES = 32 * 1024;

export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const COMMA = 0x2c;
export const COLON = 0x3a;
export const OPEN_BRACE = 0x7b;
export const CLOSE_BRACE = 0x7d;
export const OPEN_BRACKET = 0x5b;
export const CLOSE_BRACKET = 0x5d;

/** Bytes that matter outside a string: a quote and the brackets (1 for each, 0 for every other byte). */
export const STRUCTURE = new Uint8Array(256);
for (const c of [QUOTE, OPEN_BRACE, CLOSE_BRACE, OPEN_BRACKET, CLOSE_BRACKET]) STRUCTURE[c] = 1;

/** JSON whitespace: space, line feed, carriage return, tab. */
export function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** The index of the first byte at or after `at` that is not JSON whitespace (the length if none). */
export function nextNonSpace(bytes: Uint8Array, at: number): number {
  let i = at;
  while (i < bytes.length && isSpace(bytes[i] as number)) i++;
  return i;
}
