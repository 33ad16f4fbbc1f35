/**
 * The two servers of `npm run bench -- http` in its separate-process mode (bench/http-ratio.ts,
 * `RATIO_MODE=processes`), each run as a process of its own, forked by the bench: `docsbase serve`
 * (`startServer`, the command's own code) or a bare `node:http` server answering fixed bytes.
 *
 * Told what to start by its parent's first message, a server answers with its URL; then, whenever
 * asked, with the CPU time its process has used (user and system, µs), and it stops when told to.
 */
import { createServer, type OutgoingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { startServer, type ServeOptions } from "../src/cli/serve.js";

/** What a parent sends first: which server to start. */
export type StartMessage =
  | { readonly start: "docsbase"; readonly options: Omit<ServeOptions, "log"> }
  | {
      readonly start: "bare";
      readonly answer: { status: number; headers: OutgoingHttpHeaders; body: string /* base64 */ };
    };

/** What a parent sends. */
export type ServerMessage = StartMessage | { readonly cpu: true } | { readonly stop: true };

/** What a server sends back. */
export type ServerReply = { readonly url: string } | { readonly cpu: number };

async function start(message: StartMessage): Promise<{ url: string; close(): Promise<void> }> {
  if (message.start === "docsbase") return startServer({ ...message.options, log: () => {} });
  const { status, headers, body } = message.answer;
  const bytes = Buffer.from(body, "base64");
  const server = createServer((_request, response) => {
    response.writeHead(status, headers);
    response.end(bytes);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let running: { close(): Promise<void> } | undefined;
const reply = (message: ServerReply) => process.send?.(message);

process.on("message", (message: ServerMessage) => {
  void (async () => {
    if ("start" in message) {
      const started = await start(message);
      running = started;
      reply({ url: started.url });
    } else if ("cpu" in message) {
      const { user, system } = process.cpuUsage();
      reply({ cpu: user + system });
    } else {
      await running?.close();
      process.disconnect();
    }
  })().catch((error: unknown) => {
    console.error("bench server failed", error);
    process.exit(1);
  });
});
