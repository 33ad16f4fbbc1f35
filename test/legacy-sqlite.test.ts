import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { sqliteStorage } from "../src/adapters/sqlite/index.js";
import { contentMigrationsTable } from "../src/core/content-tree/migrate.js";
import { revisionsTable } from "../src/core/content-tree/tables.js";
import { storageSchema } from "../src/core/operations.js";
import { createTestDocsbase } from "../src/testing/double.js";
import { LEGACY_READS, type LegacyIds } from "./fixtures/legacy/reads.js";

/**
 * A SQLite file written before content trees (test/fixtures/legacy/make.ts, run on the last commit
 * with snapshots and deltas) opens with today's code, is migrated once, and reads the same.
 */
const fixtures = new URL("./fixtures/legacy/", import.meta.url).pathname;
const expected = JSON.parse(readFileSync(join(fixtures, "content-v1.expected.json"), "utf8")) as {
  token: string;
  ids: LegacyIds;
  answers: Record<string, unknown>;
};
const directory = mkdtempSync(join(tmpdir(), "docsbase-legacy-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

async function open(file: string) {
  const storage = sqliteStorage({ filename: file });
  const test = await createTestDocsbase({ storage });
  const read = async (path: string) => {
    const response = await test.request("GET", path, { token: expected.token });
    expect(response.status, path).toBe(200);
    return response.body;
  };
  return { storage, test, read };
}

describe("SQLite files from before content trees", () => {
  it("open, migrate every revision once, and answer every read as before", async () => {
    const file = join(directory, "content.sqlite");
    copyFileSync(join(fixtures, "content-v1.sqlite"), file);
    const raw = sqliteStorage({ filename: file });
    await raw.init(storageSchema);
    const before = await raw.read((tx) => tx.list(revisionsTable, { index: "bySpace" }));
    await raw.close();
    expect(before.length).toBeGreaterThan(40);
    expect(before.some((record) => record.snapshot) && before.some((record) => record.delta)).toBe(true);
    expect(before.every((record) => !record.tree)).toBe(true);

    const { storage, read } = await open(file);
    for (const path of LEGACY_READS(expected.ids))
      expect(await read(path), path).toEqual(expected.answers[path]);
    const after = await storage.read((tx) => tx.list(revisionsTable, { index: "bySpace" }));
    expect(after.map((record) => record.id).sort()).toEqual(before.map((record) => record.id).sort());
    for (const record of after) {
      expect(record.tree, record.id).toBeDefined();
      expect(record.snapshot ?? record.delta ?? record.base ?? record.depth).toBeUndefined();
    }
    // The marker that spares later opens a look at every revision.
    const marker = await storage.read((tx) => tx.get(contentMigrationsTable, "content-trees"));
    expect(marker?.revisions).toBe(before.length);
    await storage.close();

    // Opened again: nothing left to migrate, and the same answers.
    const again = await open(file);
    for (const path of LEGACY_READS(expected.ids)) {
      expect(await again.read(path), path).toEqual(expected.answers[path]);
    }
    await again.storage.close();
  });

  it("takes edits after the migration, on top of the migrated trees", async () => {
    const file = join(directory, "edit.sqlite");
    copyFileSync(join(fixtures, "content-v1.sqlite"), file);
    const { storage, test, read } = await open(file);
    const { space, pages } = expected.ids;
    await test
      .as(expected.token)
      .updatePage({ spaceId: space, pageId: pages[3]!, body: { markdown: "# After the migration\n" } });
    const page = (await read(`/spaces/${space}/content/page/${pages[3]}?format=markdown`)) as {
      markdown: string;
    };
    expect(page.markdown).toBe("# After the migration\n");
    // Every other page is as it was.
    const listed = (await read(`/spaces/${space}/content/pages`)) as { pages: { id: string }[] };
    const before = expected.answers[`/spaces/${space}/content/pages`] as { pages: { id: string }[] };
    expect(listed.pages.map((entry) => entry.id)).toEqual(before.pages.map((entry) => entry.id));
    await storage.close();
  });
});
