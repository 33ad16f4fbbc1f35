import { describe, expect, it } from "vitest";
import { createTestDocsbase } from "../src/testing/double.js";

/** Pagination semantics (SPEC.md, Conventions 2), through a list every caller has: their orgs. */
describe("pagination", () => {
  /** A frozen clock makes every timestamp tie: order must come from insertion, not from time. */
  async function withOrganizations(count: number) {
    const frozen = new Date("2025-06-01T00:00:00.000Z");
    const t = await createTestDocsbase({ clock: () => frozen });
    const user = await t.createUser("Pager");
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const created = await t.request("POST", "/orgs", { token: user.token, body: { title: `Org ${i}` } });
      ids.push(created.body.id);
    }
    return { t, user, ids };
  }

  it("walks every item once with next.page, and omits next on the last page", async () => {
    const { t, user, ids } = await withOrganizations(7);
    const seen: string[] = [];
    let page: string | undefined;
    let pages = 0;
    do {
      const response = await t.request("GET", `/orgs?limit=3${page ? `&page=${page}` : ""}`, {
        token: user.token,
      });
      expect(response.status).toBe(200);
      expect(response.body.count).toBe(7);
      seen.push(...response.body.items.map((item: { id: string }) => item.id));
      page = response.body.next?.page;
      pages++;
    } while (page);
    expect(pages).toBe(3);
    expect(seen).toEqual(ids);
  });

  it("stays stable when items are added between pages", async () => {
    const { t, user, ids } = await withOrganizations(4);
    const first = await t.request("GET", "/orgs?limit=2", { token: user.token });
    await t.request("POST", "/orgs", { token: user.token, body: { title: "Late" } });
    const second = await t.request("GET", `/orgs?limit=2&page=${first.body.next.page}`, {
      token: user.token,
    });
    expect(second.body.items.map((item: { id: string }) => item.id)).toEqual(ids.slice(2, 4));
    expect(second.body.count).toBe(5);
  });

  it("uses the default page size of 100 and returns only the count with limit=0", async () => {
    const { t, user } = await withOrganizations(101);
    const page = await t.request("GET", "/orgs", { token: user.token });
    expect(page.body.items).toHaveLength(100);
    expect(page.body.next).toBeDefined();
    const countOnly = await t.request("GET", "/orgs?limit=0", { token: user.token });
    expect(countOnly.body).toEqual({ count: 101, items: [] });
  });

  it("refuses limits above 1000, non-integers and foreign or forged page tokens", async () => {
    const { t, user } = await withOrganizations(3);
    expect((await t.request("GET", "/orgs?limit=1001", { token: user.token })).status).toBe(400);
    expect((await t.request("GET", "/orgs?limit=1.5", { token: user.token })).status).toBe(400);
    expect((await t.request("GET", "/orgs?limit=-1", { token: user.token })).status).toBe(400);
    const forged = await t.request("GET", "/orgs?page=bm90LWEtdG9rZW4", { token: user.token });
    expect(forged.status).toBe(400);
    expect(forged.body.error.message).toMatch(/^query\.page:/);
    const first = await t.request("GET", "/orgs?limit=1", { token: user.token });
    const other = await t.createUser("Other");
    await t.request("POST", "/orgs", { token: other.token, body: { title: "Theirs" } });
    const replayed = await t.request("GET", `/orgs?page=${first.body.next.page}`, { token: other.token });
    expect(replayed.status).toBe(400);
  });
});
