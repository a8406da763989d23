/**
 * Text → documents. JSON files are parsed with JSON.parse (duplicate keys: the last one wins, which
 * is what origin's interval files need); YAML files may hold several documents. Errors name the
 * position (JSON) or line (YAML) and never echo raw input bytes to the terminal.
 */
import yaml from 'js-yaml';
import { Budget, InputError, printable } from '../model/index.js';

/** When no run budget is given (tests, library callers), the default limits apply. */
let defaultBudget: Budget | undefined;
function budgetOr(budget: Budget | undefined): Budget {
  if (budget) return budget;
  defaultBudget ??= new Budget();
  return defaultBudget;
}

export interface Document {
  readonly value: unknown;
  /** 1-based line of the document start, when known. */
  readonly line?: number;
}

/** Parse JSON; on failure, throw InputError with the position of the first syntax error. */
export function parseJson(text: string, file: string, budget?: Budget): unknown {
  assertJsonTree(text, file, budgetOr(budget));
  try {
    return JSON.parse(text);
  } catch (err) {
    if (err instanceof RangeError) throw new InputError(file, 'invalid JSON: nesting too deep');
    throw new InputError(file, `invalid JSON: ${describeJsonError(text, err)}`);
  }
}

function describeJsonError(text: string, err: unknown): string {
  const raw = err instanceof Error ? err.message : String(err);
  const position = findJsonErrorPosition(text);
  if (/Unexpected end of JSON input/.test(raw) || position === text.length) {
    return `Unexpected end of JSON input at position ${text.length}`;
  }
  // V8 quotes the input in some messages; keep only its description of the problem.
  // V8 quotes the text around the error (`, "…"… is not valid JSON`, `..."…"...`): never repeat the
  // file's bytes. A one-character token (`Unexpected token '}'`) is kept: it says what is wrong.
  const what = raw
    .replace(/,?\s*(?:\.\.\.)?".*$/s, '')
    .replace(/ in JSON at position \d+.*$/s, '')
    .replace(/^Unexpected token '(.)[^']*'/su, "Unexpected token '$1'")
    .trim();
  const where = position === undefined ? '' : ` at position ${position} (${lineColumn(text, position)})`;
  return `${printable(what || 'syntax error', 120)}${where}`;
}

function lineColumn(text: string, position: number): string {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < position; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return `line ${line} column ${position - lineStart + 1}`;
}

/**
 * Offset of the first JSON syntax error, found by a small iterative scanner (only run once
 * JSON.parse has failed, so its speed does not matter much). Undefined when the scanner finds none.
 */
export function findJsonErrorPosition(text: string): number | undefined {
  let i = 0;
  const n = text.length;
  // Stack of containers: '{' or '['; `expect` is what the grammar wants next.
  const stack: string[] = [];
  type Expect = 'value' | 'key' | 'colon' | 'commaOrEnd' | 'valueOrEnd' | 'keyOrEnd' | 'eof';
  let expect: Expect = 'value';
  const ws = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
  const afterValue = (): Expect => (stack.length === 0 ? 'eof' : 'commaOrEnd');
  while (i < n) {
    const c = text.charCodeAt(i);
    if (ws(c)) {
      i++;
      continue;
    }
    const ch = text[i];
    switch (expect) {
      case 'eof':
        return i;
      case 'colon':
        if (ch !== ':') return i;
        i++;
        expect = 'value';
        continue;
      case 'commaOrEnd': {
        const top = stack[stack.length - 1];
        if (ch === ',') {
          i++;
          expect = top === '{' ? 'key' : 'value';
          continue;
        }
        if ((ch === '}' && top === '{') || (ch === ']' && top === '[')) {
          stack.pop();
          i++;
          expect = afterValue();
          continue;
        }
        return i;
      }
      case 'key':
      case 'keyOrEnd':
        if (ch === '}' && expect === 'keyOrEnd') {
          stack.pop();
          i++;
          expect = afterValue();
          continue;
        }
        if (ch !== '"') return i;
        {
          const end = scanString(text, i);
          if (end < 0) return -end - 1;
          i = end;
        }
        expect = 'colon';
        continue;
      default: {
        // value or valueOrEnd
        if (ch === ']' && expect === 'valueOrEnd') {
          stack.pop();
          i++;
          expect = afterValue();
          continue;
        }
        if (ch === '{') {
          stack.push('{');
          i++;
          expect = 'keyOrEnd';
          continue;
        }
        if (ch === '[') {
          stack.push('[');
          i++;
          expect = 'valueOrEnd';
          continue;
        }
        if (ch === '"') {
          const end = scanString(text, i);
          if (end < 0) return -end - 1;
          i = end;
          expect = afterValue();
          continue;
        }
        const literal = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(
          text.slice(i, i + 400),
        );
        if (!literal) return i;
        i += literal[0].length;
        expect = afterValue();
      }
    }
  }
  return expect === 'eof' ? undefined : n;
}

/** End offset (exclusive) of the string starting at `start`, or -(errorOffset+1). */
function scanString(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x22) return i + 1;
    if (c < 0x20) return -(i + 1);
    if (c === 0x5c) {
      const next = text[i + 1];
      if (next === 'u') {
        if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) return -(i + 1);
        i += 6;
        continue;
      }
      if (next === undefined || !'"\\/bfnrt'.includes(next)) return -(i + 1);
      i += 2;
      continue;
    }
    i++;
  }
  return -(text.length + 1);
}

/**
 * Parse YAML (which includes JSON) into its documents, each with the line it starts on. js-yaml's
 * CORE_SCHEMA keeps `on`/`yes` and timestamps as strings, as Kubernetes does.
 */
export function parseYamlDocuments(text: string, file: string, budget?: Budget): Document[] {
  let values: unknown[];
  try {
    values = yaml.loadAll(text, undefined, { schema: yaml.CORE_SCHEMA, json: true });
  } catch (err) {
    if (err instanceof yaml.YAMLException) {
      const mark = err.mark ? ` at line ${err.mark.line + 1} column ${err.mark.column + 1}` : '';
      throw new InputError(file, `invalid YAML: ${printable(err.reason || 'syntax error', 120)}${mark}`);
    }
    if (err instanceof RangeError) throw new InputError(file, 'invalid YAML: nesting too deep');
    throw new InputError(
      file,
      `invalid YAML: ${printable(err instanceof Error ? err.message : String(err), 120)}`,
    );
  }
  // Aliases can make a small text expand into a huge tree; every later walk would pay for it.
  if (text.includes('*')) for (const v of values) assertTreeSize(v, text.length + 1000, file);
  for (const v of values) assertTree(v, file, budgetOr(budget));
  const starts = documentStartLines(text, values.length);
  return values
    .map((value, index) => {
      const line = starts?.[index];
      return line === undefined ? { value } : { value, line };
    })
    .filter((d) => d.value !== null && d.value !== undefined);
}

/** Lines of the `---` markers, matched to documents when their count allows it. */
function documentStartLines(text: string, count: number): number[] | undefined {
  const markers: number[] = [];
  let line = 1;
  let pos = 0;
  let firstContentLine: number | undefined;
  while (pos <= text.length) {
    const nl = text.indexOf('\n', pos);
    const end = nl === -1 ? text.length : nl;
    const row = text.slice(pos, Math.min(end, pos + 4));
    if (/^---(?:\s|$)/.test(row)) markers.push(line);
    else if (
      firstContentLine === undefined &&
      !/^\s*(?:#.*)?$/.test(text.slice(pos, end)) &&
      !row.startsWith('%')
    )
      firstContentLine = line;
    if (nl === -1) break;
    pos = nl + 1;
    line++;
  }
  if (markers.length === count) return markers;
  // The first document may have no marker.
  if (
    firstContentLine !== undefined &&
    markers.length === count - 1 &&
    (markers[0] ?? Infinity) > firstContentLine
  )
    return [firstContentLine, ...markers];
  if (count === 1 && markers.length === 0 && firstContentLine !== undefined) return [firstContentLine];
  return undefined;
}

/** Count nodes (with repetition through aliases) and refuse trees larger than `budget`. */
function assertTreeSize(value: unknown, budget: number, file: string): void {
  const stack: unknown[] = [value];
  let seen = 0;
  while (stack.length > 0) {
    const v = stack.pop();
    if (++seen > budget) throw new InputError(file, 'YAML aliases expand into a tree too large to read');
    if (Array.isArray(v)) for (const x of v) stack.push(x);
    else if (v !== null && typeof v === 'object') for (const x of Object.values(v)) stack.push(x);
  }
}

/**
 * The run budget's tree limits (model/budget.ts) over a parsed YAML value, counted after alias
 * expansion: aliases make a small text a huge tree that every later walk would pay for.
 */
function assertTree(value: unknown, file: string, budget: Budget): void {
  const { treeNodes, treeDepth } = budget.limits;
  const stack: [unknown, number][] = [[value, 1]];
  let seen = 0;
  while (stack.length > 0) {
    const [v, depth] = stack.pop() as [unknown, number];
    if (++seen > treeNodes) budget.over('treeNodes', file);
    if (v === null || typeof v !== 'object') continue;
    if (depth > treeDepth) budget.over('treeDepth', file);
    const children = Array.isArray(v) ? v : Object.values(v);
    for (const x of children) stack.push([x, depth + 1]);
  }
}

/**
 * The tree limits over JSON text, before JSON.parse builds it: nodes are at most the values the text
 * holds (`[`, `{`, and one per `,` or first element), depth the deepest bracket. Strings are skipped.
 * A text shorter than the node limit cannot exceed it, so only its depth is looked at.
 */
function assertJsonTree(text: string, file: string, budget: Budget): void {
  if (scannedTexts.has(text)) return;
  const { treeNodes, treeDepth } = budget.limits;
  const countNodes = text.length > treeNodes;
  let nodes = 1;
  let depth = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // Skip the string: to the next quote not escaped.
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > treeDepth) budget.over('treeDepth', file);
      if (countNodes && ++nodes > treeNodes) budget.over('treeNodes', file);
    } else if (c === 0x7d || c === 0x5d) depth--;
    else if (c === 0x2c && countNodes && ++nodes > treeNodes) budget.over('treeNodes', file);
  }
}

/** Texts a JsonTreeScanner already held to the budget while they were read (see readers.ts). */
const scannedTexts = new Set<string>();

/**
 * The same limits as assertJsonTree over JSON bytes as they are decoded, so a bomb of `[{},{},…]`
 * stops at the node limit before its text is whole in memory.
 */
export class JsonTreeScanner {
  #nodes = 1;
  #depth = 0;
  #inString = false;
  #escaped = false;
  constructor(
    private readonly file: string,
    private readonly budget: Budget,
  ) {}

  write(chunk: Uint8Array): void {
    const { treeNodes, treeDepth } = this.budget.limits;
    let nodes = this.#nodes;
    let depth = this.#depth;
    let inString = this.#inString;
    let escaped = this.#escaped;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i] as number;
      if (inString) {
        if (escaped) escaped = false;
        else if (c === 0x5c) escaped = true;
        else if (c === 0x22) inString = false;
      } else if (c === 0x22) inString = true;
      else if (c === 0x7b || c === 0x5b) {
        if (++depth > treeDepth) this.budget.over('treeDepth', this.file);
        if (++nodes > treeNodes) this.budget.over('treeNodes', this.file);
      } else if (c === 0x7d || c === 0x5d) depth--;
      else if (c === 0x2c && ++nodes > treeNodes) this.budget.over('treeNodes', this.file);
    }
    this.#nodes = nodes;
    this.#depth = depth;
    this.#inString = inString;
    this.#escaped = escaped;
  }

  /** The text the scanned bytes became: parseJson need not look at it again. */
  scanned(text: string): () => void {
    scannedTexts.add(text);
    return () => scannedTexts.delete(text);
  }
}

/** JSON for `.json` names and text that starts like JSON; YAML documents otherwise. */
export function parseDocuments(text: string, file: string, jsonByName: boolean, budget?: Budget): Document[] {
  const trimmed = text.trimStart();
  if (jsonByName) {
    if (trimmed === '') throw new InputError(file, 'empty file');
    return [{ value: parseJson(text, file, budget) }];
  }
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    assertJsonTree(text, file, budgetOr(budget));
    let jsonError: unknown;
    try {
      return [{ value: JSON.parse(text) }];
    } catch (err) {
      // YAML flow syntax is not always JSON: try it as YAML too.
      jsonError = err;
    }
    try {
      return parseYamlDocuments(text, file, budget);
    } catch (err) {
      // Text that starts like JSON and is neither is most likely JSON cut short or damaged (a
      // truncated download, `head` of a List): the JSON error says where, the YAML one misleads.
      const yamlSyntax = err instanceof InputError && err.problem.startsWith('invalid YAML');
      if (!yamlSyntax || jsonError instanceof RangeError) throw err;
      throw new InputError(file, `invalid JSON: ${describeJsonError(text, jsonError)}`);
    }
  }
  return parseYamlDocuments(text, file, budget);
}
