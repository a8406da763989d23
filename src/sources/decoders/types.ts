/**
 * What one decoder is: how its bytes are recognised (magic bytes first, name suffix second) and how they
 * are decoded as a stream. A compression decoder turns its input into other bytes; an archive form is
 * recognised only, and its bytes are then opened as a tree (sources/open/).
 */

export interface Decoder {
  /** Shown in notes and errors: `gzip`, `zstd`. */
  readonly name: string;
  /** How many leading bytes `magic` looks at. */
  readonly magicLength: number;
  /** Whether the first bytes are this form's. Given at most `magicLength` bytes (fewer at a short file). */
  readonly magic: (head: Uint8Array) => boolean;
  /** Name endings that say this form (`.gz`); a name saying it whose bytes are not is an error. */
  readonly suffixes: readonly string[];
  /** Name endings that stand for a tar archive in this form (`.tgz` for `.tar.gz`). */
  readonly tarSuffixes?: readonly string[];
  /**
   * The decoded bytes, streamed; throws on corrupt data. `note` reports something the user should
   * know that is not an error (bytes ignored after the end of the data). Absent for an archive form.
   */
  readonly decode?: (input: AsyncIterable<Buffer>, context: DecodeContext) => AsyncIterable<Uint8Array>;
  /** The bytes are an archive, opened as a tree of entries rather than read as one file. */
  readonly archive?: boolean;
}

interface DecodeContext {
  /** Something the user should know that is not an error. */
  readonly note: (text: string) => void;
  /**
   * The data ended before the input did, somewhere after input offset `at`; what was decoded from the
   * piece holding the end may be missing. A caller that can read the input again does, with
   * `carefulFrom: at`.
   */
  readonly endedEarly?: (at: number) => void;
  /** From this input offset on, decode byte by byte, so nothing before the end of the data is lost. */
  readonly carefulFrom?: number;
}

/** `bytes` begins with `magic`. */
export function startsWith(head: Uint8Array, magic: readonly number[]): boolean {
  if (head.length < magic.length) return false;
  for (let i = 0; i < magic.length; i++) if (head[i] !== magic[i]) return false;
  return true;
}
