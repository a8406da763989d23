/**
 * A lint of the source, run with the tests: a module-level table written as an object literal with
 * open string keys (`Record<string, …>`) must not be indexed by a computed key unless the lookup is
 * guarded with `Object.hasOwn`, because a key from the input such as `constructor` or `toString`
 * finds Object.prototype's members (issue 10, case 3b: `INTERPRETED[section]` in machineconfig/ignition.ts
 * turned an Ignition section named `constructor` into an internal error). Tables keyed by input
 * strings are Maps or null-prototype objects; the few computed lookups whose key a regex has already
 * restricted are listed below with that regex.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const SRC = join(ROOT, 'src');

/** `file:TABLE` → why its computed lookups are safe. */
const RESTRICTED: ReadonlyMap<string, string> = new Map([
  [
    'src/cli/input.ts:SIZE_UNITS',
    'the unit is matched by /^(\\d+(?:\\.\\d+)?)\\s*([a-z]*)$/ and a miss is "not a size"',
  ],
  ['src/sources/buildlog.ts:LEVELS', 'the level letter is matched by ([IWE])'],
  ['src/cli/stats.ts:UNITS', 'the unit is matched by /^(\\d+)([hdw])$/'],
]);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [p] : [];
  });
}

const TABLE = /^(?:export )?const (\w+)\s*:\s*(?:Readonly<)?Record<string,[^=]*=\s*\{/gm;
const LITERAL = /^(?:'[^']*'|"[^"]*"|\d+)$/;

function unguardedLookups(): string[] {
  const out: string[] = [];
  for (const file of sources(SRC)) {
    const text = readFileSync(file, 'utf8');
    const rel = relative(ROOT, file);
    for (const m of text.matchAll(TABLE)) {
      const name = m[1]!;
      if (RESTRICTED.has(`${rel}:${name}`)) continue;
      const use = new RegExp(`(?<![\\w.])${name}\\[([^\\]]+)\\]`, 'g');
      for (const u of text.matchAll(use)) {
        const key = u[1]!.trim();
        if (LITERAL.test(key)) continue;
        const line = text.slice(text.lastIndexOf('\n', u.index) + 1, text.indexOf('\n', u.index));
        if (line.includes(`Object.hasOwn(${name},`)) continue;
        out.push(
          `${rel}: ${name}[${key}] (a Map, a null-prototype object, or Object.hasOwn(${name}, …) first)`,
        );
      }
    }
  }
  return out;
}

describe('lookups keyed by input strings (issue 10, 3b)', () => {
  it('no plain-object table with open string keys is indexed by a computed key unguarded', () => {
    expect(unguardedLookups()).toEqual([]);
  });

  it('the lint sees the pattern it guards against', () => {
    // The pattern of the original bug, checked against the same regexes (so the lint cannot rot silently).
    const sample =
      'const INTERPRETED: Readonly<Record<string, readonly string[]>> = {\n  a: [],\n};\nconst k = INTERPRETED[section];\n';
    const names = [...sample.matchAll(TABLE)].map((m) => m[1]);
    expect(names).toEqual(['INTERPRETED']);
    expect(/(?<![\w.])INTERPRETED\[([^\]]+)\]/.exec(sample)?.[1]).toBe('section');
  });
});
