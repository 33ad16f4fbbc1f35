import { describe, expect, it } from "vitest";
import { createTestDocsbase, type TestUser } from "../src/testing/double.js";

/** Pagination semantics (`{next: {page}, count, items}`), through a list every caller has: their orgs. */
describe("pagination", () => {
  /** A frozen clock makes every timestamp tie: order must come from insertion, not from time. */
  async function withOrganizations(count: number) {
    const frozen = new Date("2025-06-01T00:00:00.000Z");
    const t = await createTestDocsbase({ clock: () => frozen });
    const user = await t.createUser("Pager");
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      ids.push((await t.as(user).createOrganization({ body: { title: `Org ${i}` } })).id);
    }
    /** A page of the user's organizations. */
    const orgs = (query: { limit?: number; page?: string } = {}, caller: TestUser = user) =>
      t.as(caller).listOrganizationsForAuthenticatedUser(query);
    return { t, user, ids, orgs };
  }

  it("walks every item once with next.page, and omits next on the last page", async () => {
    const { ids, orgs } = await withOrganizations(7);
    const seen: string[] = [];
    let page: string | undefined;
    let pages = 0;
    do {
      const list = await orgs({ limit: 3, ...(page ? { page } : {}) });
      expect(list.count).toBe(7);
      seen.push(...list.items.map((item) => item.id));
      page = list.next?.page;
      pages++;
    } while (page);
    expect(pages).toBe(3);
    expect(seen).toEqual(ids);
  });

  it("stays stable when items are added between pages", async () => {
    const { t, user, ids, orgs } = await withOrganizations(4);
    const first = await orgs({ limit: 2 });
    await t.as(user).createOrganization({ body: { title: "Late" } });
    const second = await orgs({ limit: 2, page: first.next!.page });
    expect(second.items.map((item) => item.id)).toEqual(ids.slice(2, 4));
    expect(second.count).toBe(5);
  });

  it("uses the default page size of 100 and returns only the count with limit=0", async () => {
    const { orgs } = await withOrganizations(101);
    const page = await orgs();
    expect(page.items).toHaveLength(100);
    expect(page.next).toBeDefined();
    expect(await orgs({ limit: 0 })).toEqual({ count: 101, items: [] });
  });

  it("refuses limits above 1000, non-integers and foreign or forged page tokens", async () => {
    const { t, user, orgs } = await withOrganizations(3);
    // Query strings as HTTP sends them.
    for (const limit of ["1001", "1.5", "-1"]) {
      expect((await t.request("GET", `/orgs?limit=${limit}`, { token: user.token })).status, limit).toBe(400);
    }
    await expect(orgs({ page: "bm90LWEtdG9rZW4" })).rejects.toMatchObject({
      code: "bad_request",
      message: expect.stringMatching(/^query\.page:/),
    });
    const first = await orgs({ limit: 1 });
    const other = await t.createUser("Other");
    await t.as(other).createOrganization({ body: { title: "Theirs" } });
    await expect(orgs({ page: first.next!.page }, other)).rejects.toMatchObject({ code: "bad_request" });
  });
});
