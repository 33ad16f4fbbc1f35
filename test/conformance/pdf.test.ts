import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, STORAGE_KINDS, statusOf, type Harness } from "./harness.js";
import { COVERAGE } from "./coverage.js";

describe.each(STORAGE_KINDS)("conformance: change request PDF (%s)", (kind) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(kind);
  });
  afterAll(async () => {
    h.expectCovered(COVERAGE.pdf);
    h.expectConformant();
    await h.close();
  });

  it("answers a URL that serves a PDF", async () => {
    const owner = await h.test.createUser("Author");
    const org = (await h.test.as(owner).createOrganization({ body: { title: "Printers" } })).id;
    const space = (await h.test.as(owner).createSpace({ organizationId: org, body: {} })).id;
    const api = h.client(owner.token);
    const { data: changeRequest } = await api.spaces.createChangeRequest(space, { subject: "Print me" });
    await h.test.as(owner).createPageInChangeRequest({
      spaceId: space,
      changeRequestId: changeRequest.id,
      body: { title: "Printed page", markdown: "Some text." },
    });
    const { data } = await api.spaces.getChangeRequestPdf(space, String(changeRequest.number));
    const pdf = await h.test.fetch(data.url);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(new TextDecoder().decode((await pdf.arrayBuffer()).slice(0, 5))).toBe("%PDF-");
    expect(await statusOf(api.spaces.getChangeRequestPdf(space, changeRequest.id, { only: true }))).toBe(400);
  });
});
