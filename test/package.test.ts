import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The built package as a consumer sees it: every entry point of `exports` resolves (Node's
 * self-reference by package name) and ships types. `npm test` builds `dist/` before running this.
 */
const root = join(import.meta.dirname, "..");
const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  exports: Record<string, { types?: string; import?: string } | string>;
  bin: Record<string, string>;
};

function run(script: string): string {
  return execFileSync(process.execPath, ["--input-type=module", "-e", script], {
    cwd: root,
    encoding: "utf8",
  });
}

describe("built package", () => {
  const entries = Object.entries(manifest.exports).filter(([name]) => name !== "./package.json");

  it.each(entries)("%s has its module and its types in dist", (_name, target) => {
    expect(typeof target).toBe("object");
    const { types, import: module } = target as { types: string; import: string };
    expect(existsSync(join(root, module)), module).toBe(true);
    expect(existsSync(join(root, types)), types).toBe(true);
  });

  it("serves a request through the published entry points", () => {
    const output = run(`
      import { createDocsbase } from "docsbase";
      import { memoryStorage } from "docsbase/adapters/memory";
      import { sqliteStorage } from "docsbase/adapters/sqlite";
      import { postgresStorage } from "docsbase/adapters/postgres";
      import { createTestDocsbase } from "docsbase/testing";
      const docsbase = createDocsbase({ storage: memoryStorage() });
      await docsbase.bootstrap({ token: "dbt_package_test_token" });
      const response = await docsbase.fetch(new Request("http://localhost/v1/user", {
        headers: { authorization: "Bearer dbt_package_test_token" } }));
      const test = await createTestDocsbase();
      console.log(response.status, typeof sqliteStorage, typeof postgresStorage, typeof test.fetch);
    `);
    expect(output.trim()).toBe("200 function function function");
  });

  it("imports @gitbook/api, an optional peer, only when test.client is called", () => {
    // The build splits shared code into chunks (the CLI serves the double too): look at them all.
    const built = readdirSync(join(root, "dist"), { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(".js"))
      .map((file) => readFileSync(join(root, "dist", file), "utf8"));
    for (const code of built) expect(code).not.toMatch(/^import [^;]*from ["']@gitbook\/api["']/m);
    expect(built.some((code) => code.includes('import("@gitbook/api")'))).toBe(true);
    const output = run(`
      import { createTestDocsbase } from "docsbase/testing";
      const test = await createTestDocsbase();
      const api = await test.client(test.operatorToken);
      const { status } = await api.user.getAuthenticatedUser();
      console.log(status, test.calls()[0].operationId);
    `);
    expect(output.trim()).toBe("200 getAuthenticatedUser");
  });

  it("runs the docsbase binary", () => {
    const help = execFileSync(process.execPath, [join(root, manifest.bin["docsbase"]!), "serve", "--help"], {
      encoding: "utf8",
    });
    expect(help).toContain("Usage: docsbase serve");
  });
});
