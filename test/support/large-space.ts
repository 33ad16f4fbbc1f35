import { generateNKeysBetween } from "fractional-indexing";
import { commitRevision, requireRevision } from "../../src/core/content-tree/revisions.js";
import type { PageVersionRecord } from "../../src/core/content-tree/tables.js";
import { DerivedCache } from "../../src/core/shared/cache.js";
import { randomId, type World } from "../../src/core/shared/world.js";
import { spacesTable } from "../../src/core/spaces/tables.js";
import type { Storage } from "../../src/core/storage/port.js";
import { seededRandom } from "./crash-workload.js";

const WORDS = (
  "install configure deploy server client token cache index search page space revision merge " +
  "request review comment publish site section share link adaptive content schema openapi spec " +
  "integration event webhook signature translation language locale identity provider certificate " +
  "conversation cluster issue storage adapter memory sqlite postgres browser worker handler route " +
  "permission role member team organization collection file upload download image table column"
).split(" ");

/** A deterministic pseudo-random generator, so seeded spaces are the same every run. */
export const seeded = seededRandom;

/** About `bytes` of markdown: a heading and paragraphs of words from a small vocabulary. */
export function markdownOf(title: string, bytes: number, random: () => number): string {
  let text = `# ${title}\n\n`;
  while (text.length < bytes) {
    const words = Array.from({ length: 12 }, () => WORDS[Math.floor(random() * WORDS.length)]);
    text += `${words.join(" ")}.${random() < 0.15 ? "\n\n## Section\n\n" : " "}`;
  }
  return `${text.trimEnd()}\n`;
}

/**
 * Adds `count` pages to a space's live content straight through `commitRevision` (as the content
 * writes would store them, without a request per page): folders of 100 at the root, each holding
 * the next 99 pages. Returns the page ids in creation order.
 */
export async function seedLargeSpace(
  storage: Storage,
  spaceId: string,
  count: number,
  options: { readonly markdownBytes?: number; readonly seed?: number } = {},
): Promise<string[]> {
  const random = seeded(options.seed ?? 1);
  const world = {
    storage,
    clock: () => new Date("2025-01-01T00:00:00.000Z"),
    ids: () => randomId(),
    cache: new DerivedCache(64 * 1024 * 1024),
  } as unknown as World;
  const folders = Math.ceil(count / 100);
  const rootPositions = generateNKeysBetween(null, null, folders);
  const childPositions = generateNKeysBetween(null, null, 99);
  const ids: string[] = [];
  const BATCH = 2000;
  for (let start = 0; start < count; start += BATCH) {
    await storage.write(async (tx) => {
      const record = (await tx.get(spacesTable, spaceId))!;
      const head = await requireRevision(tx, world, record.revision);
      const pages = new Map<string, PageVersionRecord>();
      let folder = start === 0 ? "" : ids[Math.floor((start - 1) / 100) * 100]!;
      for (let i = start; i < Math.min(count, start + BATCH); i++) {
        const atRoot = i % 100 === 0;
        const page = world.ids();
        const title = atRoot ? `Folder ${i / 100}` : `Page ${i}`;
        pages.set(page, {
          id: world.ids(),
          page,
          parent: atRoot ? "" : folder,
          position: atRoot ? rootPositions[i / 100]! : childPositions[(i % 100) - 1]!,
          type: "document",
          title,
          slug: atRoot ? `folder-${i / 100}` : `page-${i}`,
          markdown: markdownOf(title, options.markdownBytes ?? 1024, random),
          hidden: false,
          createdAt: "2025-01-01T00:00:00.000Z",
          updatedAt: "2025-01-01T00:00:00.000Z",
        });
        if (atRoot) folder = page;
        ids.push(page);
      }
      const next = await commitRevision(tx, world, { space: spaceId, base: head, changes: { pages } });
      await tx.put(spacesTable, { ...record, revision: next.id });
    });
  }
  return ids;
}
