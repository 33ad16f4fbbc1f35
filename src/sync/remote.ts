/**
 * The replica's only way to the remote: `fetch` to its `/v1` API with the user's token. Failures
 * come in two kinds: {@link ReplicaOfflineError} when no answer arrived (the network, a dropped
 * connection), and {@link RemoteError} when the remote answered with an error status.
 */

/** No answer from the remote: the request may or may not have reached it. */
export class ReplicaOfflineError extends Error {
  override readonly name = "ReplicaOfflineError";
  readonly code = "offline";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** The remote answered with an error (`status`, and the message of its `{error}` body). */
export class RemoteError extends Error {
  override readonly name = "RemoteError";
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** A page of the remote's page tree, as `listPagesInRevisionById` gives it. */
export interface RemotePage {
  readonly id: string;
  readonly title: string;
  readonly slug: string;
  readonly pages?: readonly RemotePage[];
  readonly emoji?: string;
  readonly description?: string;
  readonly hidden?: boolean;
  readonly variables?: Record<string, string>;
  readonly updatedAt?: string;
  readonly markdown?: string;
}

/** A file of a revision, as `listFilesInRevisionById` gives it. */
export interface RemoteFile {
  readonly id: string;
  readonly name: string;
  readonly contentType: string;
  readonly downloadURL: string;
  readonly size: number;
}

/** A change request, as the remote presents it (the fields the replica reads). */
export interface RemoteChangeRequest {
  readonly id: string;
  readonly number: number;
  readonly subject: string;
  readonly status: "draft" | "open" | "merged" | "archived";
  readonly urls: { readonly app: string };
}

/** Listeners of the outcome of each contact with the remote. */
export interface RemoteHooks {
  readonly reached: () => void;
  readonly unreachable: (error: ReplicaOfflineError) => void;
}

export class Remote {
  constructor(
    readonly base: string,
    private readonly token: string,
    private readonly fetcher: typeof fetch,
    private readonly hooks: RemoteHooks,
  ) {}

  /** One call of the `/v1` API; the parsed JSON answer (undefined for an empty one). */
  async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await this.send(`${this.base}/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${this.token}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
    });
    const text = await this.read(response, () => response.text());
    if (!response.ok) {
      let message = text;
      try {
        message = (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? text;
      } catch {
        // Not JSON: the body as it is.
      }
      throw new RemoteError(response.status, `${method} ${path}: ${response.status} ${message}`);
    }
    return (text ? JSON.parse(text) : undefined) as T;
  }

  /** The bytes at a file's `downloadURL` (a capability URL: no token is sent with it). */
  async download(url: string): Promise<Uint8Array> {
    const response = await this.send(url, { method: "GET" });
    if (!response.ok) throw new RemoteError(response.status, `GET ${url}: ${response.status}`);
    return new Uint8Array(await this.read(response, () => response.arrayBuffer()));
  }

  private async send(url: string, init: RequestInit): Promise<Response> {
    let response: Response;
    try {
      response = await this.fetcher(url, init);
    } catch (error) {
      throw this.unreachable(error);
    }
    this.hooks.reached();
    return response;
  }

  /** Reads a body; a connection dropped while reading counts as no answer. */
  private async read<T>(_response: Response, read: () => Promise<T>): Promise<T> {
    try {
      return await read();
    } catch (error) {
      throw this.unreachable(error);
    }
  }

  private unreachable(error: unknown): ReplicaOfflineError {
    const offline = new ReplicaOfflineError(
      `The remote ${this.base} did not answer: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
    this.hooks.unreachable(offline);
    return offline;
  }
}

/** Runs `task` on every item, at most `limit` at a time; results in the items' order. */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
