/**
 * Network chunks written at their place in a file in batches. A socket hands over chunks of 64 KiB
 * or less; written one by one (each a thread-pool round trip, awaited before the next is read) they
 * cost more than the transfer itself on a fast link. Here each batch is one writev of every chunk
 * received while the previous batch was on its way to the disk: the socket is read on meanwhile, and
 * the chunks are the socket's own buffers (no copy). Reading waits only when too much is pending.
 */
import type { FileHandle } from 'node:fs/promises';

/** A batch is written once this much is pending (or at the end). */
const FLUSH_BYTES = 1024 * 1024;
/** Reading waits while this much is pending and a write is in flight. */
const MAX_PENDING_BYTES = 16 * 1024 * 1024;

export class BatchedWriter {
  #chunks: Buffer[] = [];
  #bytes = 0;
  #at: number;
  #writing: Promise<void> | undefined;
  #error: unknown;

  constructor(
    readonly handle: FileHandle,
    /** Where the first byte goes. */
    start: number,
    /** Told of each range once it is written (the hash worker reads it back while the rest arrives). */
    readonly onWritten?: (start: number, end: number) => void,
  ) {
    this.#at = start;
  }

  /** Take a chunk; resolves at once, unless the disk lags behind by MAX_PENDING_BYTES. */
  async push(chunk: Buffer): Promise<void> {
    this.#chunks.push(chunk);
    this.#bytes += chunk.length;
    while (this.#writing && this.#bytes >= MAX_PENDING_BYTES) await this.#writing;
    if (!this.#writing && this.#bytes >= FLUSH_BYTES) this.#flush();
    if (this.#error !== undefined) throw this.#error;
  }

  /** Write what is pending and wait for every write; throws the first write error. */
  async end(): Promise<void> {
    while (this.#writing) await this.#writing;
    if (this.#error === undefined && this.#bytes > 0) this.#flush();
    while (this.#writing) await this.#writing;
    if (this.#error !== undefined) throw this.#error;
  }

  /** Wait for the write in flight, whatever its outcome (before the same range is written again). */
  async settle(): Promise<void> {
    while (this.#writing) await this.#writing;
  }

  #flush(): void {
    const chunks = this.#chunks;
    const bytes = this.#bytes;
    const at = this.#at;
    this.#chunks = [];
    this.#bytes = 0;
    this.#at += bytes;
    this.#writing = writeAll(this.handle, chunks, at, bytes).then(
      () => {
        this.#writing = undefined;
        this.onWritten?.(at, at + bytes);
        // What arrived during this write goes next, at once.
        if (this.#bytes >= FLUSH_BYTES) this.#flush();
      },
      (err: unknown) => {
        this.#error ??= err;
        this.#writing = undefined;
      },
    );
  }
}

async function writeAll(handle: FileHandle, chunks: Buffer[], at: number, bytes: number): Promise<void> {
  let { bytesWritten: done } = await handle.writev(chunks, at);
  if (done >= bytes) return;
  // A short write (rare for a regular file): the rest as one buffer, until all of it is written.
  const rest = Buffer.concat(chunks, bytes);
  while (done < bytes) {
    const { bytesWritten } = await handle.write(rest, done, bytes - done, at + done);
    if (bytesWritten === 0) throw new Error(`could not write at offset ${at + done}`);
    done += bytesWritten;
  }
}
