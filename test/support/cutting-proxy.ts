import { type AddressInfo, connect, createServer, type Socket } from "node:net";

export interface CuttingProxy {
  /** `http://127.0.0.1:<port>`: use it as the remote instead of the server's own address. */
  readonly base: string;
  /**
   * Cut the next request whose head matches: it is forwarded whole and the server answers, then the
   * client's socket is destroyed before any byte of the answer reaches it. Resolves when it was cut.
   */
  cutAnswerTo(pattern: RegExp): Promise<void>;
  close(): Promise<void>;
}

/**
 * A real TCP proxy on 127.0.0.1 in front of `target` (`host:port`), forwarding bytes both ways,
 * that can drop a connection after the server answered and before the client saw the answer: the
 * dropped connection of the idempotency test.
 */
export async function startCuttingProxy(target: { host: string; port: number }): Promise<CuttingProxy> {
  let armed: { pattern: RegExp; done: () => void } | undefined;
  const sockets = new Set<Socket>();
  const proxy = createServer((client) => {
    const upstream = connect(target.port, target.host);
    sockets.add(client).add(upstream);
    let cut: (() => void) | undefined;
    client.on("data", (chunk: Buffer) => {
      if (armed && armed.pattern.test(chunk.toString("latin1"))) {
        cut = armed.done;
        armed = undefined;
      }
      upstream.write(chunk);
    });
    upstream.on("data", (chunk: Buffer) => {
      if (cut) {
        // The server answered: the client never gets a byte of it.
        client.destroy();
        upstream.destroy();
        cut();
        return;
      }
      client.write(chunk);
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on("close", end).on("error", end);
    upstream.on("close", end).on("error", end);
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  const { port } = proxy.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    cutAnswerTo: (pattern) => new Promise<void>((done) => (armed = { pattern, done })),
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    },
  };
}
