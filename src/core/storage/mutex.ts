/**
 * A FIFO lock for adapters whose transactions must not interleave on one connection.
 * Runtime-neutral: promises only.
 */
export class Mutex {
  #tail: Promise<void> = Promise.resolve();

  /** Runs `fn` once every earlier caller has finished, and resolves with its result. */
  run<T>(fn: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(fn);
    this.#tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }
}
