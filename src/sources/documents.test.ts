import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InputError } from '../model/errors.js';
import { findJsonErrorPosition, parseDocuments, parseJson, parseYamlDocuments } from './documents.js';

function errorOf(fn: () => unknown): InputError {
  try {
    fn();
  } catch (err) {
    if (err instanceof InputError) return err;
    throw err;
  }
  throw new Error('expected an InputError');
}

describe('parseJson', () => {
  it('names the end position of truncated JSON', () => {
    const text = '{"items": [{"kind": "Node"';
    const err = errorOf(() => parseJson(text, 'nodes.json'));
    expect(err.file).toBe('nodes.json');
    expect(err.problem).toBe(`invalid JSON: Unexpected end of JSON input at position ${text.length}`);
  });

  it('names position, line and column of a syntax error without echoing the input', () => {
    const err = errorOf(() => parseJson('{\n  "a": 1,\n  "b": }', 'x.json'));
    expect(err.problem).toBe("invalid JSON: Unexpected token '}' at position 19 (line 3 column 8)");
  });

  it('keeps the last of duplicate keys, as origin files need', () => {
    expect(parseJson('{"locator": "a", "locator": {"type": "Node"}}', 'x.json')).toEqual({
      locator: { type: 'Node' },
    });
  });

  it('sanitises control characters in the message', () => {
    const err = errorOf(() => parseJson('\u001b[31m', 'x.json'));
    expect(err.message).not.toMatch(/\u001b/);
  });
});

describe('findJsonErrorPosition', () => {
  it('agrees with JSON.parse on valid documents', () => {
    fc.assert(
      fc.property(
        fc.jsonValue(),
        (value) => findJsonErrorPosition(JSON.stringify(value, null, 1)) === undefined,
      ),
    );
  });

  it('finds an error in every truncation of a document', () => {
    fc.assert(
      fc.property(
        fc.jsonValue().filter((v) => typeof v === 'object' && v !== null),
        fc.nat(),
        (value, cut) => {
          const text = JSON.stringify(value);
          const end = cut % text.length;
          const truncated = text.slice(0, end);
          return findJsonErrorPosition(truncated) !== undefined;
        },
      ),
    );
  });

  it.each([
    ['[1,]', 3],
    ['{"a" 1}', 5],
    ['{"a":1} x', 8],
    ['"\\x"', 1],
    ['[tru]', 1],
  ])('%s → %d', (text, position) => {
    expect(findJsonErrorPosition(text)).toBe(position);
  });
});

describe('parseYamlDocuments', () => {
  it('returns each document with its start line', () => {
    const docs = parseYamlDocuments('# header\nkind: A\n---\nkind: B\n---\n\nkind: C\n', 'x.yaml');
    expect(docs).toEqual([
      { value: { kind: 'A' }, line: 2 },
      { value: { kind: 'B' }, line: 3 },
      { value: { kind: 'C' }, line: 5 },
    ]);
  });

  it('keeps YAML 1.1 words and timestamps as strings (CORE_SCHEMA)', () => {
    expect(parseYamlDocuments('a: on\nb: 2021-11-03T03:23:09Z\n', 'x.yaml')[0]?.value).toEqual({
      a: 'on',
      b: '2021-11-03T03:23:09Z',
    });
  });

  it('names the line of a YAML error', () => {
    const err = errorOf(() => parseYamlDocuments('a: [1, 2\nb: c\n', 'bad.yaml'));
    expect(err.file).toBe('bad.yaml');
    expect(err.problem).toMatch(/^invalid YAML: .* at line \d+ column \d+$/);
  });

  it('names the JSON error of text that starts like JSON and is neither JSON nor YAML (a List cut short)', () => {
    const cut = '{"kind": "List", "items": [{"kind": "ClusterVersion", "metadata": {"name": "ver';
    const err = errorOf(() => parseDocuments(cut, '(stdin)', false));
    expect(err.file).toBe('(stdin)');
    expect(err.problem).toBe(`invalid JSON: Unexpected end of JSON input at position ${cut.length}`);
    // YAML flow syntax that is not JSON is still read as YAML.
    expect(parseDocuments('{a: 1, b: [x, y]}', 'flow.yaml', false)[0]?.value).toEqual({
      a: 1,
      b: ['x', 'y'],
    });
  });

  it('refuses alias bombs', () => {
    const bomb = [
      'a: &a ["x","x","x","x","x","x","x","x","x"]',
      'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]',
      'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]',
      'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]',
      'e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]',
      'f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]',
    ].join('\n');
    expect(errorOf(() => parseYamlDocuments(bomb, 'bomb.yaml')).problem).toMatch(/aliases expand/);
  });
});

describe('parseDocuments', () => {
  it('reads JSON in a .yaml file (oc examples do this)', () => {
    expect(parseDocuments('{"kind": "Node"}', 'x-node.yaml', false)).toEqual([{ value: { kind: 'Node' } }]);
  });

  it('refuses an empty .json file', () => {
    expect(errorOf(() => parseDocuments('  \n', 'x.json', true)).problem).toBe('empty file');
  });
});

describe('JSON errors never quote the file', () => {
  it.each([
    ['{"a": secret-value-here}', 'secret'],
    ['root:x:0:0:root:/root:/bin/bash', 'root:x'],
    [`{"k": 1}${' trailing-secret'.repeat(10)}`, 'trailing-secret'],
    ['[1, 2, 3, oops-this-is-long-enough-to-be-cut-by-v8-in-its-message]', 'oops'],
  ])('%s', (text, secret) => {
    let problem = '';
    try {
      parseJson(text, 'f.json');
    } catch (err) {
      problem = (err as InputError).problem;
    }
    expect(problem).toMatch(/^invalid JSON: /);
    expect(problem).not.toContain(secret);
    expect(problem).not.toContain('is not valid JSON');
  });
});
