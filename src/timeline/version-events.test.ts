import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseLibraryGoVersionEvent } from './version-events.js';

const FROM = '4.10.0-0.nightly-2021-11-02-191632';
const TO = '4.10.0-0.nightly-2021-11-03-020416';

/** What library-go's status controller records (Go's %q of each value). */
const message = (co: string, entry: string, from: string, to: string): string =>
  `clusteroperator/${co} version ${JSON.stringify(entry)} changed from ${JSON.stringify(from)} to ${JSON.stringify(to)}`;

describe("library-go's OperatorVersionChanged message", () => {
  it('names the ClusterOperator, the entry and both versions', () => {
    expect(parseLibraryGoVersionEvent(message('etcd', 'operator', FROM, TO))).toEqual({
      operator: 'etcd',
      name: 'operator',
      from: FROM,
      to: TO,
    });
    expect(
      parseLibraryGoVersionEvent(
        'clusteroperator/kube-apiserver version "raw-internal" changed from "4.14.0" to "4.14.1"',
      ),
    ).toEqual({ operator: 'kube-apiserver', name: 'raw-internal', from: '4.14.0', to: '4.14.1' });
  });

  it('an entry reported for the first time changes from ""', () => {
    expect(parseLibraryGoVersionEvent(message('authentication', 'oauth-openshift', '', TO))).toEqual({
      operator: 'authentication',
      name: 'oauth-openshift',
      from: '',
      to: TO,
    });
  });

  it("reads an aggregated Event's message, which the timeline ends with its count", () => {
    expect(parseLibraryGoVersionEvent(`${message('etcd', 'operator', FROM, TO)} (3 times)`)?.to).toBe(TO);
  });

  it("is never the machine-config operator's form, nor a near miss of its own", () => {
    const miss = [
      `clusteroperator/machine-config-operator version changed from [{operator ${FROM}}] to [{operator ${TO}}]`,
      `clusteroperator/machine-config-operator started a version change from [{operator ${FROM}}] to [{operator ${TO}}]`,
      // Not quoted, quoted once, a trailing word, a leading space, a name that is no object name.
      `clusteroperator/etcd version operator changed from ${FROM} to ${TO}`,
      `clusteroperator/etcd version "operator" changed from "${FROM}" to ${TO}`,
      `${message('etcd', 'operator', FROM, TO)} later`,
      ` ${message('etcd', 'operator', FROM, TO)}`,
      message('Etcd', 'operator', FROM, TO),
      message('', 'operator', FROM, TO),
      message('a'.repeat(254), 'operator', FROM, TO),
      `${message('etcd', 'operator', FROM, TO)} (0 times)`,
      // No change, an empty entry or target: library-go records neither.
      message('etcd', 'operator', TO, TO),
      message('etcd', '', FROM, TO),
      message('etcd', 'operator', FROM, ''),
      // An escape Go writes and JSON does not: not guessed at.
      `clusteroperator/etcd version "operator" changed from "\\x00" to "${TO}"`,
    ];
    for (const m of miss) expect(parseLibraryGoVersionEvent(m), m).toBeUndefined();
  });

  it('unquotes the escapes Go and JSON share', () => {
    expect(
      parseLibraryGoVersionEvent('clusteroperator/etcd version "op\\"er" changed from "a\\\\b" to "c"'),
    ).toEqual({ operator: 'etcd', name: 'op"er', from: 'a\\b', to: 'c' });
  });

  it('never throws, and reads any values back exactly as they were quoted', () => {
    const name = fc.stringMatching(/^[a-z0-9][-a-z0-9.]{0,40}$/);
    fc.assert(
      fc.property(name, fc.string(), fc.string(), fc.string(), (co, entry, from, to) => {
        const got = parseLibraryGoVersionEvent(message(co, entry, from, to));
        // JSON.stringify quotes as Go's %q does for printable text; control characters JSON escapes
        // as \u00XX, which Go writes as \x.. (not read), so the values are compared only when read.
        if (entry === '' || to === '' || from === to) expect(got).toBeUndefined();
        else if (got) expect(got).toEqual({ operator: co, name: entry, from, to });
        else expect(`${entry}${from}${to}`).toMatch(/[\u0000-\u001f\u007f-\uffff]/);
      }),
    );
  });

  it('random and mutated messages never throw, and yield a change only in the exact form', () => {
    const exact = fc
      .tuple(fc.constantFrom('etcd', 'kube-apiserver'), fc.constantFrom('operator', 'raw-internal'))
      .map(([co, entry]) => message(co, entry, FROM, TO));
    const mutated = fc
      .tuple(exact, fc.nat(), fc.nat({ max: 3 }), fc.string({ maxLength: 3 }))
      .map(([m, at, cut, insert]) => {
        const i = at % (m.length + 1);
        return m.slice(0, i) + insert + m.slice(i + cut);
      });
    const form =
      /^clusteroperator\/[a-z0-9][-a-z0-9.]* version "(?:[^"\\]|\\.)*" changed from "(?:[^"\\]|\\.)*" to "(?:[^"\\]|\\.)*"(?: \([1-9][0-9]* times\))?$/;
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), mutated), (m) => {
        const got = parseLibraryGoVersionEvent(m);
        if (got === undefined) return;
        expect(m).toMatch(form);
        expect(m.startsWith(`clusteroperator/${got.operator} version `)).toBe(true);
        expect(got.to).not.toBe('');
        expect(got.from).not.toBe(got.to);
      }),
      { numRuns: 2000 },
    );
  });
});
