import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { memoryStorage } from "../../src/adapters/memory/index.js";
import { createDocsbase, type Docsbase } from "../../src/docsbase.js";
import type { Storage } from "../../src/core/storage/port.js";

/** A user of the server: id, API token and typed client. */
export interface ServerUser {
  readonly id: string;
  readonly token: string;
  readonly client: ReturnType<Docsbase["as"]>;
}

export interface SyncServer {
  /** `http://127.0.0.1:<port>`, the replica's `remote`. */
  readonly base: string;
  readonly docsbase: Docsbase;
  /** Every request the server received, `METHOD /path?query`, in order. */
  readonly requests: string[];
  user(name: string): Promise<ServerUser>;
  close(): Promise<void>;
}

/**
 * A real HTTP server on 127.0.0.1 (an ephemeral port) serving a docsbase through `docsbase.fetch`,
 * counting the requests it receives: the remote of the replica tests.
 */
export async function startSyncServer(storage: Storage = memoryStorage()): Promise<SyncServer> {
  const requests: string[] = [];
  // Made once the port is known (its base URL names it); no request arrives before.
  let docsbase: Docsbase | undefined = undefined;
  const server = createServer((incoming, outgoing) => {
    requests.push(`${incoming.method} ${incoming.url}`);
    void answer(incoming, outgoing);
  });
  const answer = async (incoming: IncomingMessage, outgoing: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(incoming.headers)) {
      if (typeof value === "string") headers.set(name, value);
    }
    const hasBody = incoming.method !== "GET" && incoming.method !== "HEAD" && chunks.length > 0;
    const response = await docsbase!.fetch(
      new Request(`${base}${incoming.url}`, {
        method: incoming.method!,
        headers,
        ...(hasBody ? { body: Buffer.concat(chunks) } : {}),
      }),
    );
    outgoing.writeHead(response.status, Object.fromEntries(response.headers));
    outgoing.end(Buffer.from(await response.arrayBuffer()));
  };
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  docsbase = createDocsbase({ storage, baseUrl: base });
  const { token: operatorToken } = await docsbase.bootstrap();
  const operator = docsbase.as({ token: operatorToken! });
  return {
    base,
    docsbase,
    requests,
    async user(name) {
      const user = await operator.createUser({
        body: { displayName: name, email: `${name.toLowerCase()}@example.com` },
      });
      const { token } = await operator.createUserToken({ userId: user.id });
      return { id: user.id, token, client: docsbase.as({ token }) };
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await docsbase.close();
    },
  };
}
