import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * The API reference's configuration, held to the package: TypeDoc itself runs in `npm test`
 * (`npm run docs:check`, which fails on any warning); this checks, without running it, what its
 * configuration must keep true as the package changes.
 */
const root = join(import.meta.dirname, "..");
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  exports: Record<string, string | { types: string }>;
  files: string[];
  scripts: Record<string, string>;
};
const { config } = ts.readConfigFile(join(root, "typedoc.json"), ts.sys.readFile) as {
  config: {
    entryPoints: string[];
    out: string;
    treatWarningsAsErrors?: boolean;
    projectDocuments?: string[];
  };
};

describe("typedoc.json", () => {
  it("documents every entry point of the package's exports", () => {
    const entries = Object.values(pkg.exports)
      .filter((target) => typeof target === "object")
      .map((target) => target.types.replace(/^\.\/dist\//, "src/").replace(/\.d\.ts$/, ".ts"));
    expect(entries.length).toBeGreaterThan(5);
    expect([...config.entryPoints].sort()).toEqual(entries.sort());
  });

  it("fails on a warning, and npm test runs it", () => {
    expect(config.treatWarningsAsErrors).toBe(true);
    expect(pkg.scripts["docs:check"]).toBe("typedoc --emit none");
    expect(pkg.scripts["test"]).toContain("npm run docs:check");
  });

  it("includes the client's methods", () => {
    expect(config.projectDocuments).toContain("docs/client.md");
  });

  it("writes where the package does not ship and git does not keep", () => {
    const out = config.out.replace(/^\.\//, "").replace(/\/$/, "");
    for (const entry of pkg.files) expect(out === entry || out.startsWith(`${entry}/`), entry).toBe(false);
    // Prose documents ship (the README links them); nothing below docs/ does.
    expect(pkg.files).toContain("docs/*.md");
    expect(pkg.files).not.toContain("docs");
    expect(readFileSync(join(root, ".gitignore"), "utf8").split("\n")).toContain(`${out}/`);
  });
});
