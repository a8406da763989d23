/**
 * `-o yaml`: the document `-o json` prints, printed as YAML (issue 39), for the kubectl user whose first
 * try is `-o yaml`. The same document: whatever JSON would drop or change (undefined, a function,
 * NaN, -0, a toJSON method) is dropped or changed here the same way, so that both parse to one value.
 * As safe to print as safeJson's text (model/terminal.ts): every string is double-quoted, so the
 * characters a terminal acts on (DEL, C1 controls, bidirectional controls) can be written as escapes.
 */
import yaml from 'js-yaml';
import { escapeInQuotes, needsEscapeInQuotes } from '../model/index.js';

/** JSON.stringify's view of a value, so that YAML and JSON print the same document. */
function asJson(this: unknown, key: string, value: unknown): unknown {
  let v = value;
  if (v !== null && typeof v === 'object' && typeof (v as { toJSON?: unknown }).toJSON === 'function')
    v = (v as { toJSON: (key: string) => unknown }).toJSON(key);
  if (typeof v === 'number') return Number.isFinite(v) ? (Object.is(v, -0) ? 0 : v) : null;
  if (typeof v === 'bigint') throw new TypeError('a bigint has no JSON form');
  // In an array JSON writes null where it cannot write the value; in an object it leaves the key out.
  if (v === undefined || typeof v === 'function' || typeof v === 'symbol')
    return Array.isArray(this) ? null : undefined;
  return v;
}

/**
 * A plain (unquoted) mapping key on one line: js-yaml writes a key plain when it needs no escape, so
 * the plain text is the key itself; `- ` items may come before it.
 */
const PLAIN_KEY = /^((?: *- )* *)([^\s"'?-][^\n]*?|-[^\s\n][^\n]*?)(:(?: .*)?)$/;

export function safeYaml(doc: unknown): string {
  const text = yaml.dump(doc, {
    forceQuotes: true,
    quotingType: '"',
    noRefs: true,
    lineWidth: -1,
    skipInvalid: true,
    replacer: asJson,
  });
  // What a terminal acts on and YAML's printable set lets through raw: the characters safeJson escapes.
  if (!needsEscapeInQuotes(text)) return text;
  return text
    .split('\n')
    .map((line) => {
      if (!needsEscapeInQuotes(line)) return line;
      // A key from the input (a component or file name) written plain: quote it, then escape.
      const key = PLAIN_KEY.exec(line);
      const quoted = key && !key[2]?.startsWith('"') ? `${key[1]}${JSON.stringify(key[2])}${key[3]}` : line;
      return escapeInQuotes(quoted);
    })
    .join('\n');
}
