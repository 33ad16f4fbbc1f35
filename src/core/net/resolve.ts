/**
 * Host-name resolution for the outbound-HTTP guard, without importing anything runtime-specific
 * (STYLE.md, rule 6): the runtime's resolver is looked up on `globalThis` when the guard is built.
 */

/** Answers every address a host name resolves to (IPv4 and IPv6), as the runtime's `fetch` would. */
export type ResolveHost = (hostname: string) => Promise<readonly string[]>;

interface NodeDns {
  readonly promises: {
    lookup(
      hostname: string,
      options: { all: true; verbatim: true },
    ): Promise<readonly { readonly address: string }[]>;
  };
}

interface RuntimeGlobals {
  readonly process?: { readonly getBuiltinModule?: (id: string) => unknown };
  readonly Deno?: { readonly resolveDns?: (query: string, type: "A" | "AAAA") => Promise<string[]> };
  readonly document?: unknown;
  readonly WorkerGlobalScope?: unknown;
}

/** Thrown by the default resolver on a server runtime that offers no way to resolve names. */
export class NoResolverError extends Error {
  override readonly name = "NoResolverError";
}

/**
 * The runtime's resolver, or `null` in a browser page or worker.
 *
 * - Node >= 20.16, Bun and Deno: `node:dns` `lookup`, reached through `process.getBuiltinModule`.
 *   It uses the system resolver (getaddrinfo, `/etc/hosts` included), as those runtimes' `fetch`
 *   does, so the guard sees the addresses the connection will use.
 * - Deno without `process.getBuiltinModule`: `Deno.resolveDns` (A and AAAA). It asks DNS servers
 *   directly and does not read `/etc/hosts`; a name only listed there fails to resolve and is
 *   refused.
 * - Browser pages and workers: `null`. A browser offers no resolver, and its `fetch` reaches no
 *   more than the user's own browser does (CORS, Private Network Access), so names are checked by
 *   name only (`localhost`) and IP literals by address.
 * - Any other runtime (Node before 20.16...): a resolver that always throws {@link NoResolverError},
 *   so names are refused rather than left unchecked. Pass `resolveHost` to the guard there.
 */
export function runtimeResolver(): ResolveHost | null {
  const runtime = globalThis as RuntimeGlobals;
  const dns = runtime.process?.getBuiltinModule?.("node:dns") as NodeDns | undefined;
  if (dns?.promises?.lookup) {
    const { promises } = dns;
    return async (hostname) =>
      (await promises.lookup(hostname, { all: true, verbatim: true })).map(({ address }) => address);
  }
  const deno = runtime.Deno;
  if (deno?.resolveDns) {
    const resolveDns = deno.resolveDns.bind(deno);
    return async (hostname) => {
      const answers = await Promise.allSettled([resolveDns(hostname, "A"), resolveDns(hostname, "AAAA")]);
      const addresses = answers.flatMap((answer) => (answer.status === "fulfilled" ? answer.value : []));
      if (addresses.length === 0 && answers[0].status === "rejected") throw answers[0].reason;
      return addresses;
    };
  }
  if (runtime.document !== undefined || runtime.WorkerGlobalScope !== undefined) return null;
  return async (hostname) => {
    throw new NoResolverError(
      `Cannot resolve "${hostname}": this runtime offers no resolver; pass resolveHost to the outbound guard`,
    );
  };
}
