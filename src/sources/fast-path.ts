/**
 * A copy-free fast path for validateObject, derived from the zod schemas themselves.
 *
 * zod's parse of a looseObject builds a new object for every object, array and record the schema
 * describes; for the 30,000 Events of a CI run that copying (and collecting it) is most of the
 * time validation takes. Nearly every real object passes its schema unchanged, so the copy buys
 * nothing. `fastPath(schema)` compiles a schema, once, into a predicate that answers true only when
 * zod would accept the value AND give back a value deep-equal to it (no transform changing anything,
 * no key dropped); the caller then keeps the raw value. Anything else, including every invalid
 * object, goes to zod as before, so every error message is zod's.
 *
 * The predicate is derived from `schema._zod.def`, so it cannot drift from the schema. It knows
 * the node types objects.ts uses and reproduces zod 4's semantics for each (cited per case below);
 * a node type or check it does not know makes the whole schema "always zod", never "accept". The
 * predicate is a tree of closures; only a looseObject's own key reads are generated code (see
 * objectCheck), because reading every key through one variable was most of the predicate's cost.
 *
 * What the predicate accepts is data as JSON.parse and js-yaml build it: objects whose prototype
 * is Object.prototype and arrays whose prototype is Array.prototype, with own enumerable data
 * properties. Anything else (class instances, null-prototype objects, symbol keys, an own
 * `__proto__` key, which zod drops) is left to zod. A transform (the `stringMap` value's
 * `null -> ''`) is run on the value, as zod would run it, and accepted only when it returns the
 * value itself, so a null label value goes to zod; transforms are assumed pure, as zod assumes.
 *
 * Telling such data from anything else costs, for every object, a list of its symbol keys (and for
 * every array, of its keys): most of the check's time on a CI run's Events. A caller that knows its
 * value was built by JSON.parse or js-yaml (collectOne: documents and List items) asks for
 * `fastPath(schema, true)`, whose checks leave those two tests out; the prototype test and the own
 * `__proto__` key stay, since parsed data can have those (a member kept as bytes, `"__proto__": …`).
 *
 * zod's output differs from the raw value in one way the predicate cannot see: key order (zod puts
 * a looseObject's declared keys first). Nothing atlevel prints depends on it: serve writes objects
 * in an order of its own, and analyze's reports of the large bench run and the examples are
 * byte-identical with and without this fast path.
 */
import type * as z from 'zod';

type Check = (value: unknown) => boolean;

interface Compiled {
  readonly check: Check;
  /**
   * The check accepts exactly what zod accepts (and zod gives the value back unchanged), so a
   * rejection means zod rejects. Only such nodes may be union options: zod takes the first option
   * that succeeds, and a conservative rejection of an earlier option could hide that zod would
   * take it with a changed value.
   */
  readonly exact: boolean;
}

type Def = {
  readonly type: string;
  readonly [key: string]: unknown;
};

class Unsupported extends Error {}

/**
 * How a check tells a plain object and a plain array (see isPlainObject, isPlainArray): the
 * containers of any value, or of a value a parser built (`parsed`).
 */
interface Shapes {
  readonly object: (v: unknown) => v is Record<string, unknown>;
  readonly array: (v: unknown) => v is unknown[];
}

/** What compile builds its checks with, set by fastPath for the time of one compilation. */
let shapes: Shapes;

const caches = {
  any: new WeakMap<z.ZodType, Check | null>(),
  parsed: new WeakMap<z.ZodType, Check | null>(),
};

/**
 * The predicate for `schema`, compiled on first use; null when the schema holds something the
 * compiler does not reproduce (then every value goes to zod). With `parsed`, the predicate is for
 * values JSON.parse or js-yaml built (see isParsedObject): on any other value it may accept what
 * zod would change.
 */
export function fastPath(schema: z.ZodType, parsed = false): Check | null {
  const cache = parsed ? caches.parsed : caches.any;
  let check = cache.get(schema);
  if (check === undefined) {
    shapes = parsed ? PARSED_DATA : ANY_DATA;
    try {
      check = compile(schema).check;
    } catch (err) {
      if (!(err instanceof Unsupported)) throw err;
      check = null;
    }
    cache.set(schema, check);
  }
  return check;
}

function defOf(schema: unknown): Def {
  const def = (schema as { _zod?: { def?: unknown } } | null)?._zod?.def;
  if (def === null || typeof def !== 'object' || typeof (def as Def).type !== 'string') {
    throw new Unsupported('not a zod schema');
  }
  return def as Def;
}

function traits(schema: unknown): Set<string> {
  return (schema as { _zod: { traits: Set<string> } })._zod.traits;
}

/** The schema's checks (`.min(1)` and the like); an absent list is none. */
function checksOf(def: Def): readonly unknown[] {
  const checks = def.checks;
  if (checks === undefined) return [];
  if (!Array.isArray(checks)) throw new Unsupported('checks');
  return checks;
}

function noChecks(def: Def): void {
  if (checksOf(def).length !== 0) throw new Unsupported(`checks on ${def.type}`);
}

/** A coerced schema converts its input (z.coerce.string()), so its output is not the input. */
function noCoerce(def: Def): void {
  if (def.coerce === true) throw new Unsupported(`coerced ${def.type}`);
}

function compile(schema: unknown): Compiled {
  const def = defOf(schema);
  switch (def.type) {
    case 'string':
      return compileString(def);
    case 'number':
      noCoerce(def);
      noChecks(def);
      // $ZodNumber: a number that is neither NaN nor infinite.
      return { check: (v) => typeof v === 'number' && Number.isFinite(v), exact: true };
    case 'boolean':
      noCoerce(def);
      noChecks(def);
      return { check: (v) => typeof v === 'boolean', exact: true };
    case 'literal': {
      noChecks(def);
      // $ZodLiteral: Set.has, i.e. SameValueZero against the listed values.
      const values = new Set(def.values as readonly unknown[]);
      return { check: (v) => values.has(v), exact: true };
    }
    case 'unknown':
    case 'any':
      noChecks(def);
      // Passed through as is, whatever it is (a DeferredJson config included).
      return { check: () => true, exact: true };
    case 'optional':
      return compileOptional(schema, def);
    case 'nullable': {
      noChecks(def);
      // $ZodNullable: null passes as is, anything else goes to the inner schema.
      const inner = compile(def.innerType);
      const check = inner.check;
      return { check: (v) => v === null || check(v), exact: inner.exact };
    }
    case 'union':
      return compileUnion(def);
    case 'array':
      return compileArray(def);
    case 'object':
      return compileObject(def);
    case 'record':
      return compileRecord(def);
    case 'pipe':
      return compilePipe(def);
    default:
      throw new Unsupported(def.type);
  }
}

function compileString(def: Def): Compiled {
  noCoerce(def);
  // A format (z.email() and the like) is a string with a pattern of its own.
  if (def.format !== undefined || def.pattern !== undefined) throw new Unsupported('string format');
  const mins: number[] = [];
  for (const c of checksOf(def)) {
    const cdef = (c as { _zod?: { def?: { check?: unknown; minimum?: unknown } } })._zod?.def;
    if (cdef?.check !== 'min_length' || typeof cdef.minimum !== 'number') {
      throw new Unsupported(`string check ${String(cdef?.check)}`);
    }
    mins.push(cdef.minimum);
  }
  if (mins.length === 0) return { check: (v) => typeof v === 'string', exact: true };
  const min = Math.max(...mins);
  // $ZodCheckMinLength counts code points (a surrogate pair is one, a lone surrogate one too).
  return { check: (v) => typeof v === 'string' && codePointsAtLeast(v, min), exact: true };
}

/** Whether `s` has at least `min` code points, counted as zod counts them. */
function codePointsAtLeast(s: string, min: number): boolean {
  const units = s.length;
  if (units < min) return false;
  if (units >= min * 2) return true;
  let count = units;
  for (let i = 0; i < units - 1; i++) {
    if ((s.charCodeAt(i) & 0xfc00) === 0xd800 && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      count--;
      i++;
    }
  }
  return count >= min;
}

function compileOptional(schema: unknown, def: Def): Compiled {
  noChecks(def);
  // z.exactOptional() has type 'optional' too, but does not accept undefined.
  if (traits(schema).has('$ZodExactOptional')) throw new Unsupported('exactOptional');
  // An inner default would be substituted for undefined ($ZodOptional).
  const inner = def.innerType as { _zod: { optin?: string } };
  if (inner._zod.optin === 'defaulted') throw new Unsupported('optional default');
  const compiled = compile(inner);
  const check = compiled.check;
  return { check: (v) => v === undefined || check(v), exact: compiled.exact };
}

function compileUnion(def: Def): Compiled {
  noChecks(def);
  // z.xor() and z.discriminatedUnion() are unions that choose differently.
  if (def.inclusive === false || def.discriminator !== undefined) throw new Unsupported('union kind');
  const options = (def.options as readonly unknown[]).map(compile);
  if (options.length === 0 || !options.every((o) => o.exact)) throw new Unsupported('union option');
  const checks = options.map((o) => o.check);
  return { check: (v) => checks.some((c) => c(v)), exact: true };
}

/** An array as JSON.parse builds one: zod's copy keeps the elements only, and fills holes. */
function isPlainArray(v: unknown): v is unknown[] {
  return (
    Array.isArray(v) &&
    Object.getPrototypeOf(v) === Array.prototype &&
    // No hole and no named property (each would change the count).
    Object.keys(v).length === v.length &&
    Object.getOwnPropertySymbols(v).length === 0
  );
}

function compileArray(def: Def): Compiled {
  // Size checks ($ZodArray's capSize) are not reproduced.
  noChecks(def);
  const isArray = shapes.array;
  const element = compile(def.element).check;
  return {
    check: (v) => {
      if (!isArray(v)) return false;
      for (let i = 0; i < v.length; i++) {
        if (!element(v[i])) return false;
      }
      return true;
    },
    exact: false,
  };
}

/** An object as JSON.parse builds one, with nothing zod would drop from its copy. */
function isPlainObject(v: unknown): v is Record<string, unknown> {
  return (
    v !== null &&
    typeof v === 'object' &&
    Object.getPrototypeOf(v) === Object.prototype &&
    // zod skips an own `__proto__` key (JSON.parse makes one of `"__proto__": ...`).
    !Object.hasOwn(v, '__proto__') &&
    // Symbol keys are dropped by an object and rejected by a record.
    Object.getOwnPropertySymbols(v).length === 0
  );
}

/**
 * isPlainObject for a value JSON.parse or js-yaml built: neither makes a symbol key, so the costly
 * part of the test (Object.getOwnPropertySymbols, a call into the runtime and an array for every
 * object, most of the check's time on a CI run's Events) is left out. The prototype test stays: a
 * YAML timestamp is a Date, and a member kept as bytes a DeferredJson.
 */
function isParsedObject(v: unknown): v is Record<string, unknown> {
  return (
    v !== null &&
    typeof v === 'object' &&
    Object.getPrototypeOf(v) === Object.prototype &&
    !Object.hasOwn(v, '__proto__')
  );
}

/** isPlainArray for a value JSON.parse or js-yaml built: neither makes a hole, a named property or a symbol. */
function isParsedArray(v: unknown): v is unknown[] {
  return Array.isArray(v) && Object.getPrototypeOf(v) === Array.prototype;
}

const ANY_DATA: Shapes = { object: isPlainObject, array: isPlainArray };
const PARSED_DATA: Shapes = { object: isParsedObject, array: isParsedArray };

interface Field {
  readonly key: string;
  readonly check: Check;
  /** zod leaves the key out, or keeps it as undefined, as the input had it. */
  readonly optional: boolean;
}

function compileObject(def: Def): Compiled {
  noChecks(def);
  // looseObject: unknown keys are kept as they are. A strict or stripping object is not handled.
  const catchall = def.catchall;
  if (catchall === undefined || defOf(catchall).type !== 'unknown') {
    throw new Unsupported('object without an unknown catchall');
  }
  noChecks(defOf(catchall));
  const shape = def.shape as Record<PropertyKey, unknown>;
  if (Object.getOwnPropertySymbols(shape).length !== 0) throw new Unsupported('symbol key');
  const fields: Field[] = [];
  for (const key of Object.keys(shape)) {
    // `value[key]` must read the input's own property or nothing, as zod's `input[key]` does.
    if (key in Object.prototype) throw new Unsupported(`key ${key}`);
    const schema = shape[key] as { _zod: { optin?: string; optout?: string } };
    const optional = schema._zod.optin === 'optional' && schema._zod.optout === 'optional';
    fields.push({ key, check: compile(schema).check, optional });
  }
  return { check: objectCheck(fields), exact: false };
}

/**
 * The check of one looseObject, generated so that each key is read by name (`v["kind"]`): one
 * loop reading every key by a variable is a megamorphic lookup, and cost several times as much.
 * The text holds only the keys (as JSON string literals) and indices into `checks`.
 */
function objectCheck(fields: readonly Field[]): Check {
  const lines = fields.map((field, i) => {
    const read = `v[${JSON.stringify(field.key)}]`;
    // zod's handlePropertyResult: an absent or undefined value is fine only for an optional key;
    // for any other key zod reports it or writes a value the input did not have.
    const undef = field.optional ? `checks[${i}](undefined)` : 'false';
    return `x = ${read}; if (!(x === undefined ? ${undef} : checks[${i}](x))) return false;`;
  });
  const body = `return (v) => { if (!isPlainObject(v)) return false; let x; ${lines.join(' ')} return true; };`;
  const make = new Function('checks', 'isPlainObject', body) as (
    checks: readonly Check[],
    plain: typeof isPlainObject,
  ) => Check;
  return make(
    fields.map((f) => f.check),
    shapes.object,
  );
}

function compileRecord(def: Def): Compiled {
  noChecks(def);
  const keyDef = defOf(def.keyType);
  if (keyDef.type !== 'string' || keyDef.format !== undefined) throw new Unsupported('record key');
  noCoerce(keyDef);
  noChecks(keyDef);
  if (def.mode !== undefined && def.mode !== 'strict') throw new Unsupported('record mode');
  const isObject = shapes.object;
  const value = compile(def.valueType).check;
  return {
    check: (v) => {
      if (!isObject(v)) return false;
      // for...in: the own enumerable string keys, as zod's Reflect.ownKeys filtered to enumerable
      // ones (Object.prototype has no enumerable keys).
      for (const key in v) {
        if (!value(v[key])) return false;
      }
      return true;
    },
    exact: false,
  };
}

/**
 * `.transform(f)` is a pipe into a transform. zod runs `f` on what the inner schema gave back;
 * the output equals the input only when `f` returns its argument itself, which is checked by
 * running `f` on primitives (an object could come back changed in place).
 */
function compilePipe(def: Def): Compiled {
  noChecks(def);
  const first = compile(def.in).check;
  const outDef = defOf(def.out);
  if (outDef.type !== 'transform') throw new Unsupported('pipe into a schema');
  noChecks(outDef);
  const transform = outDef.transform;
  if (typeof transform !== 'function') throw new Unsupported('transform');
  const f = transform as (value: unknown, ctx: unknown) => unknown;
  return {
    check: (v) => {
      if ((v !== null && typeof v === 'object') || typeof v === 'function' || !first(v)) return false;
      // What ZodTransform hands a transform as its context: the payload, with addIssue.
      const issues: unknown[] = [];
      const ctx = { value: v, issues, addIssue: (issue: unknown) => issues.push(issue) };
      let out: unknown;
      try {
        out = f(v, ctx);
      } catch {
        return false;
      }
      return issues.length === 0 && Object.is(out, v);
    },
    exact: false,
  };
}
