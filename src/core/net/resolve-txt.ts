/**
 * TXT lookups for hostname claims (docs/sites.md, "Custom hostnames"), without importing anything
 * runtime-specific: the runtime's resolver is found on `globalThis`, as `resolve.ts` does for
 * addresses.
 */

/** The TXT records of `name`, each as its strings joined; rejects when the name has none. */
export type ResolveTxt = (name: string) => Promise<readonly string[]>;

interface RuntimeGlobals {
  readonly process?: { readonly getBuiltinModule?: (id: string) => unknown };
  readonly Deno?: { readonly resolveDns?: (query: string, type: "TXT") => Promise<string[][]> };
}

interface NodeDns {
  readonly promises: { resolveTxt(name: string): Promise<string[][]> };
}

/**
 * The runtime's TXT resolver, or `null` where there is none (browsers, Node before 20.16):
 * `node:dns` `resolveTxt` through `process.getBuiltinModule` (Node, Bun, Deno), else
 * `Deno.resolveDns(name, "TXT")`. Both ask the system's DNS servers, not `/etc/hosts`.
 */
export function runtimeTxtResolver(): ResolveTxt | null {
  const runtime = globalThis as RuntimeGlobals;
  const dns = runtime.process?.getBuiltinModule?.("node:dns") as NodeDns | undefined;
  const deno = runtime.Deno?.resolveDns?.bind(runtime.Deno);
  const resolve = dns?.promises?.resolveTxt
    ? (name: string) => dns.promises.resolveTxt(name)
    : deno && ((name: string) => deno(name, "TXT"));
  if (!resolve) return null;
  return async (name) => (await resolve(name)).map((strings) => strings.join(""));
}
