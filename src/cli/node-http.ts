import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import type { BodyErrors, PlainAnswer, PlainRequest } from "../http/plain.js";
import { errorAnswer } from "../http/status.js";

/**
 * How long, and how much, of a body nobody read (a request refused before its body was read) is
 * discarded after the answer before the connection is closed instead.
 */
export const DRAIN_MS = 500;
export const DRAIN_BYTES = 64 * 1024 * 1024;

/**
 * A request target whose path and query hold only characters the URL parser leaves as they are:
 * the handler reads it as it is. Any other target is handed over as the URL parser serializes it.
 */
const PLAIN_TARGET = /^\/[\w\-.~!$&'()*+,;=:@%/?]*$/;

/** Node's request as the handler's {@link PlainRequest}: nothing is read or built until asked for. */
export class NodeRequest implements PlainRequest {
  readonly method: string;
  readonly url: string;
  readonly address: string | undefined;
  #request: Request | undefined;

  /** Throws a `TypeError` for a target the URL parser refuses. */
  constructor(readonly incoming: IncomingMessage) {
    this.method = incoming.method ?? "GET";
    const target = incoming.url ?? "/";
    this.url = PLAIN_TARGET.test(target) ? target : new URL(target, "http://localhost").href;
    this.address = incoming.socket?.remoteAddress;
  }

  header(name: string): string | null {
    const value = this.incoming.headers[name];
    if (value === undefined) return null;
    return typeof value === "string" ? value : value.join(", ");
  }

  readBody(maxBytes: number, errors: BodyErrors): Promise<Uint8Array> {
    const incoming = this.incoming;
    if (incoming.readableEnded) return Promise.resolve(new Uint8Array());
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const done = () => {
        incoming.off("data", onData);
        incoming.off("end", onEnd);
        incoming.off("error", onError);
        incoming.off("close", onClose);
      };
      const onData = (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) {
          // The rest is discarded after the answer, within the drain's limits (`answerNode`).
          done();
          incoming.pause();
          reject(errors.tooLarge());
          return;
        }
        chunks.push(chunk);
      };
      const onEnd = () => {
        done();
        resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
      };
      const onError = (error: unknown) => {
        done();
        reject(errors.readError(error));
      };
      // The client went away mid-body (no "end" will come).
      const onClose = () => {
        if (!incoming.complete) onError(new Error("aborted"));
      };
      incoming.on("data", onData);
      incoming.on("end", onEnd);
      incoming.on("error", onError);
      incoming.on("close", onClose);
    });
  }

  discardBody(): void {
    // Nothing to do here: an unread body is drained (or the connection closed) after the answer.
  }

  request(): Request {
    if (this.#request) return this.#request;
    const headers = new Headers();
    const raw = this.incoming.rawHeaders;
    for (let i = 0; i < raw.length; i += 2) {
      try {
        headers.append(raw[i]!, raw[i + 1]!);
      } catch {
        // A value the fetch standard refuses is left out of this copy.
      }
    }
    const url = this.url.startsWith("/")
      ? `http://${this.incoming.headers.host ?? "localhost"}${this.url}`
      : this.url;
    try {
      this.#request = new Request(url, { method: this.method, headers });
    } catch {
      // A Host header or a method the fetch standard refuses: the copy keeps what it can.
      this.#request = new Request(new URL(this.url, "http://localhost"), { headers });
    }
    return this.#request;
  }
}

/**
 * Writes an answer on Node's response: a string or bytes in one `end` with its Content-Length, a
 * stream piped. A body left unread by the handler is then discarded, for {@link DRAIN_MS} and up
 * to {@link DRAIN_BYTES}, past which the connection is closed.
 */
export function answerNode(incoming: IncomingMessage, outgoing: ServerResponse, answer: PlainAnswer): void {
  if (!incoming.readableEnded && incoming.method !== "GET" && incoming.method !== "HEAD") {
    outgoing.once("finish", () => drain(incoming));
  }
  const { status, body } = answer;
  let headers = answer.headers;
  if (body === null) {
    outgoing.writeHead(status, headers as Record<string, string>);
    outgoing.end();
  } else if (typeof body === "string" || body instanceof Uint8Array) {
    if (headers["content-length"] === undefined) {
      headers = { ...headers, "content-length": String(Buffer.byteLength(body)) };
    }
    outgoing.writeHead(status, headers as Record<string, string>);
    outgoing.end(body);
  } else {
    outgoing.writeHead(status, headers as Record<string, string>);
    const stream = Readable.fromWeb(body as NodeReadableStream<Uint8Array>);
    stream.on("error", (error) => outgoing.destroy(error));
    outgoing.on("close", () => stream.destroy());
    stream.pipe(outgoing);
  }
}

/**
 * Writes answers together, once per turn of the event loop: an answer ready now is written from
 * `setImmediate`, after the poll phase has read every request that had arrived, with the others
 * ready by then. Written one by one as they come, each answer to a waiting client wakes it on its
 * own; written together, the writes after the first find it awake. Under load this takes a third
 * of the CPU off each request (docs/performance.md, "The request path"); an answer waits at most
 * for the requests read in the same turn. `done` runs once its answer is written, or failed.
 */
export class AnswerWriter {
  #queue: Queued[] = [];

  answer(incoming: IncomingMessage, outgoing: ServerResponse, answer: PlainAnswer, done?: () => void): void {
    this.#enqueue({ incoming, outgoing, answer, done });
  }

  fail(outgoing: ServerResponse, error: unknown, done?: () => void): void {
    this.#enqueue({ outgoing, error, done });
  }

  #enqueue(queued: Queued): void {
    if (this.#queue.push(queued) === 1) setImmediate(this.#flush);
  }

  readonly #flush = (): void => {
    const queue = this.#queue;
    this.#queue = [];
    for (const { incoming, outgoing, answer, error, done } of queue) {
      try {
        if (!incoming || !answer) answerFailure(outgoing, error);
        else {
          try {
            answerNode(incoming, outgoing, answer);
          } catch (refused) {
            // Node refused the answer (a header value it cannot send): a defect, answered 500.
            answerFailure(outgoing, refused);
          }
        }
      } catch (failed) {
        // Only a failure to write the 500 itself lands here: the connection is all that is left.
        console.error("docsbase: could not write an answer", failed);
      } finally {
        done?.();
      }
    }
  };
}

/** An answer, or the failure to answer 500, waiting for the end of the turn. */
interface Queued {
  readonly incoming?: IncomingMessage;
  readonly outgoing: ServerResponse;
  readonly answer?: PlainAnswer;
  readonly error?: unknown;
  readonly done?: (() => void) | undefined;
}

/** Answers a handler that failed outright (it renders its own errors: this is a defect). */
export function answerFailure(outgoing: ServerResponse, error: unknown): void {
  console.error("docsbase: the request handler failed", error);
  if (outgoing.headersSent) {
    outgoing.destroy();
    return;
  }
  const answer = errorAnswer(500, "Internal server error");
  outgoing.writeHead(answer.status, answer.headers as Record<string, string>);
  outgoing.end(answer.body);
}

function drain(incoming: IncomingMessage) {
  if (incoming.readableEnded || incoming.destroyed) return;
  let size = 0;
  const stop = () => {
    clearTimeout(timer);
    incoming.off("data", onData);
    incoming.off("end", stop);
    incoming.off("error", stop);
  };
  const close = () => {
    stop();
    incoming.socket?.destroySoon();
  };
  const onData = (chunk: Buffer) => {
    size += chunk.length;
    if (size > DRAIN_BYTES) close();
  };
  const timer = setTimeout(close, DRAIN_MS);
  timer.unref();
  incoming.on("data", onData);
  incoming.on("end", stop);
  incoming.on("error", stop);
  incoming.resume();
}
