/**
 * `atlevel-revisions.jsonl`, the simulator's record of every object revision its API server stored
 * (docs/simulate.md): one JSON object a line, `{"type","at","kind","name","object"}` and `namespace`
 * for a namespaced kind. Read through the pipeline's edge (input-file.ts); a line that is not a
 * revision is an error naming the file and the line, since a partial record would replay wrongly.
 */
import { InputError, type ObjectRevision } from '../../model/index.js';
import { type InputFileOptions, readInputText } from './input-file.js';

export const SIM_REVISIONS_FILE = 'atlevel-revisions.jsonl';

const TYPES: ReadonlySet<string> = new Set(['ADDED', 'MODIFIED', 'DELETED']);

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Parse the text of a revisions file; `display` names it in errors. */
export function parseSimRevisions(text: string, display: string): ObjectRevision[] {
  const out: ObjectRevision[] = [];
  const lines = text.split('\n');
  let last = -Infinity;
  for (const [i, line] of lines.entries()) {
    if (line.trim() === '') continue;
    const where = `${display}:${i + 1}`;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      throw new InputError(
        where,
        'not a JSON line',
        'expected one revision a line, as `atlevel simulate` writes',
      );
    }
    const bad = (what: string): InputError =>
      new InputError(where, `not an object revision: ${what}`, 'expected the file `atlevel simulate` writes');
    if (!isObject(v)) throw bad('not a JSON object');
    const { type, at, kind, namespace, name, object } = v;
    if (typeof type !== 'string' || !TYPES.has(type)) throw bad('type is not ADDED, MODIFIED or DELETED');
    const t = typeof at === 'string' ? Date.parse(at) : Number.NaN;
    if (Number.isNaN(t)) throw bad('at is not an RFC 3339 time');
    if (t < last) throw bad('at is earlier than the line before (revisions are oldest first)');
    last = t;
    if (typeof kind !== 'string' || kind === '') throw bad('kind is not a string');
    if (typeof name !== 'string' || name === '') throw bad('name is not a string');
    if (namespace !== undefined && typeof namespace !== 'string') throw bad('namespace is not a string');
    if (!isObject(object) || !isObject(object.metadata)) throw bad('object has no metadata');
    if (object.metadata.name !== name) throw bad('object.metadata.name is not name');
    out.push({
      type: type as ObjectRevision['type'],
      at: t,
      kind,
      ...(typeof namespace === 'string' && namespace !== '' ? { namespace } : {}),
      name,
      object,
    });
  }
  return out;
}

export async function loadSimRevisions(path: string, opts: InputFileOptions = {}): Promise<ObjectRevision[]> {
  return parseSimRevisions(await readInputText(path, opts), opts.display ?? path);
}
