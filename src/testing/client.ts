import type { GitBookAPI } from "@gitbook/api";

/** What the official client needs of a double: where it answers, and its `fetch`. */
export interface ClientTarget {
  readonly endpoint: string;
  readonly fetch: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;
}

/**
 * An official `GitBookAPI` client acting with `token`, whose every request goes through the
 * double's `fetch` (its `serviceBinding`), so that the journal, faults and `onUnserved` apply.
 * `@gitbook/api` is an optional peer dependency: it is imported here, on the first call, and not
 * when `docsbase/testing` loads, so the kit works without it until a test asks for the client.
 */
export async function officialClient(
  target: ClientTarget,
  token: string,
  load: () => Promise<typeof import("@gitbook/api")> = () => import("@gitbook/api"),
): Promise<GitBookAPI> {
  let api: typeof import("@gitbook/api");
  try {
    api = await load();
  } catch (error) {
    throw new Error(
      "test.client needs the official client, @gitbook/api: install it (npm install --save-dev @gitbook/api)",
      { cause: error },
    );
  }
  // The client types its binding as the global `fetch`; the double's takes the same arguments.
  const fetch = target.fetch as typeof globalThis.fetch;
  return new api.GitBookAPI({ endpoint: target.endpoint, authToken: token, serviceBinding: { fetch } });
}
