/**
 * A JSON value kept as its bytes until something asks for it. A CI run's machineconfigs.json holds
 * hundreds of rendered configs of about 200 KB each, nearly all of it Ignition data URLs, and a
 * diff or an explanation reads the contents of two of them: the reader keeps each large
 * `spec.config` as bytes (KINDS.MachineConfig.deferred) and only the configs that are compared are
 * ever parsed. Everything that treats the config as JSON sees the parsed value: `value()` for
 * code, `toJSON()` for JSON.stringify (serve, the CI artifact writer).
 *
 * The reader has checked that the bytes are one balanced value; their syntax is checked when they
 * are parsed, and an error then names the file and the JSON path, as the Ignition decoding of the
 * same config would (src/machineconfig).
 */
import { InputError } from './errors.js';

export class DeferredJson {
  readonly #bytes: Uint8Array;
  readonly #file: string;
  readonly #path: string;
  #parsed = false;
  #value: unknown;

  constructor(bytes: Uint8Array, file: string, path: string) {
    this.#bytes = bytes;
    this.#file = file;
    this.#path = path;
  }

  get byteLength(): number {
    return this.#bytes.byteLength;
  }

  value(): unknown {
    if (!this.#parsed) {
      try {
        this.#value = JSON.parse(
          Buffer.from(this.#bytes.buffer, this.#bytes.byteOffset, this.#bytes.byteLength).toString('utf8'),
        );
      } catch {
        // Not JSON.parse's message: it quotes the input, which may be anything.
        throw new InputError(this.#file, `${this.#path}: not valid JSON`);
      }
      this.#parsed = true;
    }
    return this.#value;
  }

  toJSON(): unknown {
    return this.value();
  }
}

/** `value` itself, or what a DeferredJson holds. */
export function resolveDeferred(value: unknown): unknown {
  return value instanceof DeferredJson ? value.value() : value;
}
