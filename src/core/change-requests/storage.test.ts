import { generateNKeysBetween } from "fractional-indexing";
import { LRUCache } from "lru-cache";
import { describe, expect, it } from "vitest";
import { createWorkspace } from "../../../test/support/workspace.js";
import { commitRevision, requireRevision } from "../content/revisions.js";
import { randomId, type World } from "../shared/world.js";
import type { ReadTransaction } from "../storage/port.js";
import { type PageVersionRecord, pageVersionsTable, revisionsTable } from "../content/tables.js";
import { spacesTable } from "../spaces/tables.js";

const PAGES = 1000;
const EDITS = 200;
const bytes = (record: unknown) => new TextEncoder().encode(JSON.stringify(record)).length;

/** Every revision of a space and every page version they reference: count and JSON bytes. */
async function footprint(tx: ReadTransaction, space: string) {
  const revisions = await tx.list(revisionsTable, {
    index: "bySpace",
    where: [space],
  });
  const versions = new Set<string>();
  for (const revision of revisions) {
    for (const id of Object.values(revision.snapshot?.pages ?? {})) versions.add(id);
    for (const id of Object.values(revision.delta?.pages ?? {})) if (id) versions.add(id);
  }
  let total = revisions.reduce((sum, revision) => sum + bytes(revision), 0);
  for (const id of versions) total += bytes(await tx.get(pageVersionsTable, id));
  return { records: revisions.length + versions.size, bytes: total };
}

describe("storage of change requests", () => {
  it(`shares unchanged pages: ${EDITS} single-page edits of a ${PAGES}-page space`, async () => {
    const { api, storage, space } = await createWorkspace();
    const spaceId = await space({ title: "Big" });
    const world: World = {
      storage,
      clock: () => new Date("2025-01-01T00:00:00.000Z"),
      ids: () => randomId(),
      baseUrl: "http://docsbase.test",
      appUrl: "http://docsbase.test",
      cache: new LRUCache<string, object>({ max: 100 }),
      // Revisions are all this test writes: no network, no lifecycle events.
      fetch: () => Promise.reject(new Error("no network in this test")),
      lifecycle: { purgeSpace: async () => {}, memberRemoved: async () => {} },
    };
    // The space's pages, written straight through commitRevision in batches of 100.
    const pageIds = await storage.write(async (tx) => {
      const record = (await tx.get(spacesTable, spaceId))!;
      let head = await requireRevision(tx, world, record.revision);
      const positions = generateNKeysBetween(null, null, PAGES);
      for (let start = 0; start < PAGES; start += 100) {
        const pages = new Map<string, PageVersionRecord>();
        for (let i = start; i < start + 100; i++) {
          const page = `page${String(i).padStart(4, "0")}`;
          pages.set(page, {
            id: world.ids(),
            page,
            parent: "",
            position: positions[i]!,
            type: "document",
            title: `Page ${i}`,
            slug: `page-${i}`,
            markdown: `# Page ${i}\n\n${"Some documentation text. ".repeat(16)}\n`,
            hidden: false,
            createdAt: "2025-01-01T00:00:00.000Z",
            updatedAt: "2025-01-01T00:00:00.000Z",
          });
        }
        head = await commitRevision(tx, world, { space: spaceId, base: head, changes: { pages } });
      }
      await tx.put(spacesTable, { ...record, revision: head.record.id });
      return [...head.pages.keys()];
    });
    expect(pageIds).toHaveLength(PAGES);

    const before = await storage.read(async (tx) => {
      const record = (await tx.get(spacesTable, spaceId))!;
      const content = await requireRevision(tx, world, record.revision);
      const copy = [...content.pages.values()].reduce((sum, version) => sum + bytes(version), 0);
      return { ...(await footprint(tx, spaceId)), copy };
    });

    const cr = (await api("POST", `/spaces/${spaceId}/change-requests`, { subject: "Many edits" })).body;
    for (let i = 0; i < EDITS; i++) {
      const page = pageIds[(i * 5) % PAGES]!;
      const edited = await api("PATCH", `/spaces/${spaceId}/change-requests/${cr.id}/content/page/${page}`, {
        markdown: `# Edited ${i}\n\nNew text.\n`,
      });
      expect(edited.status).toBe(200);
    }
    expect((await api("POST", `/spaces/${spaceId}/change-requests/${cr.id}/merge`)).body.result).toBe(
      "merge",
    );

    const after = await storage.read((tx) => footprint(tx, spaceId));
    const growth = { records: after.records - before.records, bytes: after.bytes - before.bytes };
    const copies = EDITS * before.copy;
    const ratio = growth.bytes / copies;
    console.log(
      `storage: ${PAGES}-page space (one full copy of its pages: ${before.copy} bytes); ` +
        `${EDITS} edits in a change request + merge added ${growth.records} records, ${growth.bytes} bytes ` +
        `= ${(ratio * 100).toFixed(2)}% of ${EDITS} full copies (${copies} bytes)`,
    );
    // One page version and one small revision per edit, a snapshot every 32 revisions, one merge.
    expect(growth.records).toBeLessThan(EDITS * 2 + 5);
    expect(growth.bytes).toBeLessThan(0.05 * copies);
    const { body: merged } = await api(
      "GET",
      `/spaces/${spaceId}/content/page/${pageIds[5]}?format=markdown`,
    );
    expect(merged.markdown).toBe("# Edited 1\n\nNew text.\n");
  });
});
