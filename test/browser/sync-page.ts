/**
 * The page of the issue-26 browser tests: a replica of a remote space on IndexedDB, in the page.
 * The test drives it through `globalThis.syncScenario` (page.evaluate).
 */
import { indexedDbStorage } from "../../src/adapters/indexeddb/index.js";
import { createDocsbase } from "../../src/index.js";
import { createReplica, type Replica } from "../../src/sync/index.js";

let replica: Replica | undefined;
/** Every replica event since the page opened, in order. */
const events: { event: string; detail: unknown }[] = [];

const opened = () => {
  if (!replica) throw new Error("call open() first");
  return replica;
};

/** A page's local state: the page as markdown, or null when it is gone. */
async function readPage(space: string, pageId: string) {
  try {
    const page = await opened().client.getPageById({ spaceId: space, pageId, format: "markdown" });
    return { title: page.title, markdown: page.markdown };
  } catch {
    return null;
  }
}

const scenario = {
  /**
   * Opens (or reopens) the replica kept in this origin's IndexedDB. The remote is this page's own
   * origin, where the site passes `/v1` on to `docsbase serve`, unless another is given (CORS).
   */
  async open(token: string, remote: string = location.origin) {
    const docsbase = createDocsbase({
      storage: indexedDbStorage({ name: "docsbase-sync-test" }),
      baseUrl: location.origin,
    });
    replica = await createReplica({ docsbase, remote, token });
    for (const event of ["pulled", "pushed", "conflict", "offline", "online"] as const) {
      replica.on(event, (detail) => events.push({ event, detail: JSON.parse(JSON.stringify(detail)) }));
    }
    return { user: replica.user };
  },
  pull: (space: string) => opened().pull(space),
  status: (space: string) => opened().status(space),
  push: (space: string, subject?: string) => opened().push(space, subject ? { subject } : {}),
  resolve: (space: string, pages: Record<string, "changeRequest" | "space">) =>
    opened().resolve(space, { pages }),
  sync: () => opened().sync(),
  online: () => opened().online,
  events: () => events,
  readPage,
  /** Local writes, as an app makes them (the typed in-process client of the local user). */
  async update(space: string, pageId: string, markdown: string) {
    await opened().client.updatePage({ spaceId: space, pageId, body: { markdown } });
  },
  async create(space: string, title: string, markdown: string) {
    const page = await opened().client.createPage({ spaceId: space, body: { title, markdown } });
    return page.id;
  },
  async remove(space: string, pageId: string) {
    await opened().client.deletePage({ spaceId: space, pageId });
  },
};

(globalThis as { syncScenario?: typeof scenario }).syncScenario = scenario;
