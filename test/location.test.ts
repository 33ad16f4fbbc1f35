import { expect, it } from "vitest";
import { createTestDocsbase } from "../src/testing/double.js";

/**
 * Every 201 carries `Location`. The conformance harness checks it for every reference operation;
 * these are the extension operations that create tokens, pages and files, whose bodies have no
 * `urls.location`: their Location is the URL that reads (or, for a token, revokes) what was made.
 */
it("names what the extension operations create in Location", async () => {
  const test = await createTestDocsbase({ baseUrl: "http://docs.test" });
  const user = await test.createUser("Writer", "writer@location.test");
  const as = (method: string, path: string, body?: unknown) =>
    test.request(method, path, { token: user.token, ...(body !== undefined ? { body } : {}) });
  const relative = (location: string | null) => {
    expect(location).toMatch(/^http:\/\/docs\.test\/v1\//);
    return (location as string).slice("http://docs.test/v1".length);
  };
  const org = (await as("POST", "/orgs", { title: "Org" })).body.id as string;
  const space = (await as("POST", `/orgs/${org}/spaces`, { title: "Space" })).body.id as string;
  const cr = (await as("POST", `/spaces/${space}/change-requests`, { subject: "Draft" })).body.id as string;

  for (const content of [`/spaces/${space}/content`, `/spaces/${space}/change-requests/${cr}/content`]) {
    const page = await as("POST", `${content}/pages`, { title: "Guide", markdown: "Hello" });
    expect(page.status).toBe(201);
    expect(relative(page.headers.get("location"))).toBe(`${content}/page/${page.body.id}`);
    expect((await as("GET", relative(page.headers.get("location")))).body.id).toBe(page.body.id);

    const file = await as("POST", `${content}/files`, {
      name: "a.txt",
      contentType: "text/plain",
      data: btoa("a"),
    });
    expect(file.status).toBe(201);
    expect(relative(file.headers.get("location"))).toBe(`${content}/files/${file.body.id}`);
    expect((await as("GET", relative(file.headers.get("location")))).body.id).toBe(file.body.id);
  }

  const token = await as("POST", `/users/${user.id}/tokens`, { label: "ci" });
  expect(token.status).toBe(201);
  expect(relative(token.headers.get("location"))).toBe(`/users/${user.id}/tokens/${token.body.id}`);
  expect((await as("DELETE", relative(token.headers.get("location")))).status).toBe(205);
});
