import { memoryStorage } from "../src/adapters/memory/index.js";
import { createTestDocsbase } from "../src/testing/double.js";
import { markdownOf, seedLargeSpace, seeded } from "../test/support/large-space.js";
const storage = memoryStorage();
const test = await createTestDocsbase({ storage });
const owner = await test.createUser("Owner");
const token = owner.token;
const req = async (m: string, p: string, body?: unknown) => {
  const r = await test.request<any>(m, p, { token, ...(body ? { body } : {}) });
  if (r.status >= 300) throw new Error(p + r.status);
  return r.body;
};
const org = (await req("POST", "/orgs", { title: "Bench" })).id;
const space = (await req("POST", `/orgs/${org}/spaces`, { title: "Docs" })).id;
const pages = await seedLargeSpace(storage, space, 10000, { markdownBytes: 4096 });
const random = seeded(3);
const times: number[] = [];
for (let round = 0; round < 3; round++) {
  const cr = await req("POST", `/spaces/${space}/change-requests`, { subject: "x" });
  for (let i = 0; i < 1000; i++)
    await req(
      "PATCH",
      `/spaces/${space}/change-requests/${cr.id}/content/page/${pages[1 + ((i * 7 + round) % 9999)]}`,
      { markdown: markdownOf("c", 4096, random) },
    );
  await req("PATCH", `/spaces/${space}/content/page/${pages[9999]}`, { title: "t" + round });
  const s = performance.now();
  await req("POST", `/spaces/${space}/change-requests/${cr.id}/merge`);
  times.push(performance.now() - s);
}
console.log(times);
