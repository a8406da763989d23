/**
 * The protobuf wire format, read only as far as the review requests need it. kubectl 1.32 sends its
 * SelfSubjectAccessReview and SelfSubjectRulesReview as `application/vnd.kubernetes.protobuf` (the
 * answer may be JSON: it accepts both), so a server that answers `kubectl auth can-i` must read them.
 * The bytes are untrusted: every length is checked against what is left, varints are capped at 10
 * bytes, and nothing is allocated beyond the body, which the caller has already capped.
 */

/** A body that is not well-formed protobuf; its message words the problem as gogo-protobuf does. */
export class ProtobufError extends Error {
  override readonly name = 'ProtobufError';
}

const VARINT = 0;
const FIXED64 = 1;
const BYTES = 2;
const FIXED32 = 5;

const NONE: ReadonlySet<number> = new Set();

interface Field {
  readonly wireType: number;
  /** The payload of a length-delimited field, or undefined for the numeric wire types. */
  readonly bytes?: Uint8Array;
  readonly varint?: bigint;
}

/** One message's fields by number, in the order they came (a repeated number keeps each occurrence). */
export class ProtoMessage {
  readonly #fields: ReadonlyMap<number, readonly Field[]>;
  /** The Go type name, for error messages (`proto: wrong wireType = 0 for field Verb`). */
  readonly #name: string;

  private constructor(name: string, fields: ReadonlyMap<number, readonly Field[]>) {
    this.#name = name;
    this.#fields = fields;
  }

  /** Parse one message; unknown fields are kept and ignored, as generated Unmarshal code skips them. */
  static parse(name: string, buf: Uint8Array): ProtoMessage {
    const fields = new Map<number, Field[]>();
    let at = 0;
    while (at < buf.length) {
      const [key, afterKey] = readVarint(buf, at);
      at = afterKey;
      const number = Number(key >> 3n);
      const wireType = Number(key & 7n);
      if (number <= 0)
        throw new ProtobufError(`proto: ${name}: illegal tag ${number} (wire type ${wireType})`);
      let field: Field;
      if (wireType === VARINT) {
        const [value, next] = readVarint(buf, at);
        at = next;
        field = { wireType, varint: value };
      } else if (wireType === BYTES) {
        const [length, next] = readVarint(buf, at);
        if (length > BigInt(buf.length - next)) throw new ProtobufError('unexpected EOF');
        at = next + Number(length);
        field = { wireType, bytes: buf.subarray(next, at) };
      } else if (wireType === FIXED64 || wireType === FIXED32) {
        at += wireType === FIXED64 ? 8 : 4;
        if (at > buf.length) throw new ProtobufError('unexpected EOF');
        field = { wireType };
      } else {
        throw new ProtobufError(`proto: illegal wireType ${wireType}`);
      }
      const list = fields.get(number);
      if (list) list.push(field);
      else fields.set(number, [field]);
    }
    return new ProtoMessage(name, fields);
  }

  /** A string field: the last occurrence wins, as in proto3; absent is "". */
  string(number: number, fieldName: string): string {
    const last = this.#bytesOf(number, fieldName).at(-1);
    return last === undefined ? '' : UTF8.decode(last);
  }

  /** A bytes field (runtime.Unknown's raw): the last occurrence wins. */
  bytes(number: number, fieldName: string): Uint8Array {
    return this.#bytesOf(number, fieldName).at(-1) ?? new Uint8Array();
  }

  /**
   * An embedded message, or undefined when absent. Several occurrences merge, as the protobuf spec
   * says, which is what parsing their bytes one after the other does.
   */
  message(number: number, fieldName: string, typeName: string): ProtoMessage | undefined {
    const parts = this.#bytesOf(number, fieldName);
    if (parts.length === 0) return undefined;
    return ProtoMessage.parse(typeName, parts.length === 1 ? (parts[0] as Uint8Array) : concat(parts));
  }

  #bytesOf(number: number, fieldName: string): Uint8Array[] {
    const out: Uint8Array[] = [];
    for (const f of this.#fields.get(number) ?? []) {
      if (f.bytes === undefined)
        throw new ProtobufError(`proto: wrong wireType = ${f.wireType} for field ${fieldName}`);
      out.push(f.bytes);
    }
    return out;
  }

  /**
   * Whether every field holds its zero value: varints 0, empty strings and bytes, and embedded
   * messages whose own fields are all zero (looked into `depth` levels deep; bytes that do not parse
   * as a message are a non-empty string). Fields in `skip` are not looked at.
   */
  isZero(skip: ReadonlySet<number> = NONE, depth = 3): boolean {
    for (const [number, fields] of this.#fields) {
      if (skip.has(number)) continue;
      for (const f of fields) {
        if (f.varint !== undefined ? f.varint !== 0n : f.bytes === undefined) return false;
        if (f.bytes === undefined || f.bytes.length === 0) continue;
        if (depth === 0) return false;
        let inner: ProtoMessage;
        try {
          inner = ProtoMessage.parse(this.#name, f.bytes);
        } catch {
          return false;
        }
        if (!inner.isZero(NONE, depth - 1)) return false;
      }
    }
    return true;
  }
}

/** Go converts protobuf strings without checking them; invalid UTF-8 becomes U+FFFD here. */
const UTF8 = new TextDecoder('utf-8', { fatal: false });

function readVarint(buf: Uint8Array, from: number): [bigint, number] {
  let value = 0n;
  for (let i = 0; i < 10; i++) {
    const b = buf[from + i];
    if (b === undefined) throw new ProtobufError('unexpected EOF');
    value |= BigInt(b & 0x7f) << BigInt(7 * i);
    if ((b & 0x80) === 0) return [value, from + i + 1];
  }
  throw new ProtobufError('proto: integer overflow');
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** The four bytes before every Kubernetes protobuf object (apimachinery runtime/serializer/protobuf). */
const MAGIC = Uint8Array.from([0x6b, 0x38, 0x73, 0x00]);

/** A Kubernetes protobuf body: the runtime.Unknown envelope's type and the object's own bytes. */
export interface Envelope {
  readonly apiVersion: string;
  readonly kind: string;
  readonly raw: Uint8Array;
}

/**
 * Unwrap the envelope as apimachinery's protobuf Serializer.Decode does (runtime/serializer/protobuf/
 * protobuf.go): the magic prefix, then runtime.Unknown {typeMeta{apiVersion, kind}, raw,
 * contentEncoding, contentType}. The errors are its errors.
 */
export function unwrapEnvelope(body: Uint8Array): Envelope {
  if (body.length === 0) throw new ProtobufError('empty data');
  if (body.length < MAGIC.length || MAGIC.some((b, i) => body[i] !== b))
    throw new ProtobufError(
      `provided data does not appear to be a protobuf message, expected prefix [${[...MAGIC].join(' ')}]`,
    );
  if (body.length === MAGIC.length) throw new ProtobufError('empty body');
  const unknown = ProtoMessage.parse('Unknown', body.subarray(MAGIC.length));
  const typeMeta = unknown.message(1, 'TypeMeta', 'TypeMeta');
  return {
    apiVersion: typeMeta?.string(1, 'APIVersion') ?? '',
    kind: typeMeta?.string(2, 'Kind') ?? '',
    raw: unknown.bytes(2, 'Raw'),
  };
}
