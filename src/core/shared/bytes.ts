/**
 * Reads a byte stream to its end into one array, failing with `tooLarge()` as soon as it passes
 * `maxBytes`, so no more than the limit is ever held. On any failure the stream is cancelled. A
 * failure of the stream itself goes through `readError` when given (an HTTP body whose client went
 * away is the client's fault, not the server's); aborting `signal` cancels the read.
 */
export async function readCapped(
  stream: ReadableStream<Uint8Array>,
  maxBytes: number,
  options: {
    readonly tooLarge: () => Error;
    readonly readError?: (error: unknown) => Error;
    readonly signal?: AbortSignal;
  },
): Promise<Uint8Array<ArrayBuffer>> {
  const reader = stream.getReader();
  // A source that ignores the signal still stops streaming once it is aborted.
  const stop = () => void reader.cancel().catch(() => {});
  options.signal?.addEventListener("abort", stop, { once: true });
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      let next: ReadableStreamReadResult<Uint8Array>;
      try {
        next = await reader.read();
      } catch (error) {
        throw options.readError ? options.readError(error) : error;
      }
      if (next.done) break;
      size += next.value.byteLength;
      if (size > maxBytes) throw options.tooLarge();
      chunks.push(next.value);
    }
  } catch (error) {
    await reader.cancel().catch(() => {});
    throw error;
  } finally {
    options.signal?.removeEventListener("abort", stop);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
