/**
 * Text as PostgreSQL can hold it. Its text type cannot hold U+0000 ("invalid byte sequence for encoding
 * UTF8: 0x00"), jsonb refuses the escape `\u0000` ("unsupported Unicode escape sequence"), and both
 * refuse a lone UTF-16 surrogate (`\ud800` in JSON is "invalid input syntax for type json"; the pg
 * driver would send one as U+FFFD anyway). Names in a run come from its inputs, so any of them may carry
 * these: each becomes U+FFFD, the replacement character, on both engines alike, and the rest of the
 * text is kept as it was.
 */

const UNSAFE = /[\u0000\ud800-\udfff]/;
/** A NUL, a high surrogate not followed by a low one, or a low one not after a high one. */
const REPLACED = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** The string with NULs and lone surrogates replaced by U+FFFD (well-formed pairs kept). */
function pgText(s: string): string {
  if (!UNSAFE.test(s)) return s;
  return s.replace(REPLACED, '\uFFFD');
}

/** JSON.stringify, every string in it (keys too) made safe with pgText first: for a `$1::jsonb`. */
export function pgJson(value: unknown): string {
  return JSON.stringify(value, (_key: string, v: unknown) => {
    if (typeof v === 'string') return pgText(v);
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
      // Keys are written as they are by JSON.stringify: an unsafe one is renamed before it gets there.
      const entries = Object.entries(v as Record<string, unknown>);
      if (entries.some(([k]) => UNSAFE.test(k)))
        return Object.fromEntries(entries.map(([k, x]) => [pgText(k), x]));
    }
    return v;
  });
}

/** Query parameters with every string made safe (pgText). */
export function pgParams(params: readonly unknown[] | undefined): unknown[] | undefined {
  return params?.map((p) => (typeof p === 'string' ? pgText(p) : p));
}
