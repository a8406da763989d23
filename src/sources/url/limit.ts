/**
 * A counting semaphore: at most `size` tasks run at once, the rest wait in order. The storage client
 * shares one between listings and downloads, so the number of requests in flight is bounded as a
 * whole.
 */
export class Limiter {
  #running = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(readonly size: number) {
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`concurrency must be ≥ 1, not ${size}`);
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#running >= this.size) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    this.#running += 1;
    try {
      return await task();
    } finally {
      this.#running -= 1;
      this.#waiting.shift()?.();
    }
  }
}
