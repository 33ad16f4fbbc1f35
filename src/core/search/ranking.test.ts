import { beforeAll, describe, expect, it } from "vitest";
import { createWorkspace } from "../../../test/support/workspace.js";
import { requireRevision } from "../content-tree/revisions.js";
import type { World } from "../shared/world.js";
import { spacesTable } from "../spaces/tables.js";
import { searchRevision } from "./live-index.js";

/**
 * Ranking on a fixed corpus: a small set of pages and, for each query, the order in which their
 * titles come back, written down. The order is the contract of search-index.ts (section title 3,
 * page title 1.5, body 1; all words must match, else any; prefixes; one typo in five letters);
 * whatever the index is built or updated with, these orders must hold.
 */

const CORPUS: { title: string; markdown: string; parent?: string }[] = [
  { title: "Getting started", markdown: "Install the command line tool, then deploy your first site." },
  {
    title: "Deploy",
    markdown:
      "Ship a site.\n\n# Rollback\n\nUndo a deploy from the dashboard.\n\n# Preview\n\nEvery branch gets a preview.",
    parent: "Getting started",
  },
  {
    title: "Configuration",
    markdown:
      "The configuration file.\n\n# Environment variables\n\nSet secrets as environment variables before you deploy.",
  },
  {
    title: "Environment",
    markdown: "Each deploy runs in an isolated environment with its own variables.",
    parent: "Configuration",
  },
  {
    title: "Troubleshooting",
    markdown:
      "# Build fails\n\nCheck the build log.\n\n# Deploy hangs\n\nA deploy that hangs usually waits on a lock.\n\n# Cache\n\nClear the build cache.",
  },
  {
    title: "Kangaroo compiler",
    markdown: "The kangaroo compiler turns templates into pages. It caches compiled templates.",
  },
  {
    title: "Glossary",
    markdown: "Site, deploy, preview, branch, cache, compiler, environment, template, plan.",
  },
  {
    title: "Billing",
    markdown: "Invoices are sent monthly by the billing team. The free plan has no invoices.",
  },
];

const QUERIES: [query: string, titles: string[]][] = [
  ["deploy", ["Deploy", "Troubleshooting", "Configuration", "Glossary", "Getting started", "Environment"]],
  ["environment variables", ["Configuration", "Environment"]],
  ["cache", ["Troubleshooting", "Glossary", "Kangaroo compiler"]],
  ["compil", ["Kangaroo compiler", "Glossary"]],
  ["templats", ["Kangaroo compiler", "Glossary"]],
  ["invoices", ["Billing"]],
  ["preview branch", ["Deploy", "Glossary"]],
  // A query of common words only keeps them.
  ["the", ["Getting started", "Configuration", "Troubleshooting", "Billing", "Deploy", "Kangaroo compiler"]],
  ["rollback dashboard", ["Deploy"]],
  // No page has both words: any word may match.
  [
    "zebra deploy",
    ["Deploy", "Troubleshooting", "Configuration", "Glossary", "Getting started", "Environment"],
  ],
];

async function rankingCorpus() {
  const w = await createWorkspace();
  const space = await w.space({ title: "Docs" });
  const ids = new Map<string, string>();
  for (const { title, markdown, parent } of CORPUS) {
    const body = { title, markdown, ...(parent ? { parent: ids.get(parent) } : {}) };
    const created = await w.client.createPage({ spaceId: space, body });
    ids.set(title, created.id);
  }
  const titles = async (query: string) =>
    (await w.client.searchSpaceContent({ spaceId: space, query })).items.map((item) => item.title);
  const world = { cache: new Map() } as unknown as World;
  const scores = (query: string) =>
    w.storage.read(async (tx) => {
      const content = await requireRevision(tx, world, (await tx.get(spacesTable, space))!.revision);
      return (await searchRevision(tx, world, content, query)).map((hit) => hit.score);
    });
  return { ...w, space, ids, titles, scores };
}

describe("ranking on a fixed corpus", () => {
  let corpus: Awaited<ReturnType<typeof rankingCorpus>>;
  beforeAll(async () => {
    corpus = await rankingCorpus();
  });
  it.each(QUERIES)("%s", async (query, expected) => {
    expect(await corpus.titles(query)).toEqual(expected);
    // No two pages tie: the order is the ranking's alone, not that of the (random) page ids.
    const scores = await corpus.scores(query);
    expect(new Set(scores).size).toBe(scores.length);
  });
});
