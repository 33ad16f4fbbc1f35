import { describe, expect, it, vi } from "vitest";
import { createWorkspace } from "../../../test/support/workspace.js";

// A processing that throws rather than returning a failure (a defect of its own or of a library):
// the same source would throw again, so nothing is retried.
vi.mock("./document.js", async (importOriginal) => ({
  ...(await importOriginal<typeof import("./document.js")>()),
  processSource: () => Promise.reject(new RangeError("Maximum call stack size exceeded")),
}));

describe("OpenAPI processing job", () => {
  it("ends the spec as PARSE_ERROR and its job dead at once when the processing throws", async () => {
    const w = await createWorkspace();
    const ids = { organizationId: w.org, specSlug: "pets" };
    const text = `openapi: 3.1.0\ninfo: { title: Pets, version: "1" }\npaths: {}\n`;
    await w.client.createOpenAPISpec({ organizationId: w.org, body: { slug: "pets", source: { text } } });
    expect(await w.test.jobs.drain()).toBe(1);
    const spec = await w.client.getOpenAPISpecBySlug(ids);
    expect(spec).toMatchObject({
      processingState: "complete",
      lastProcessErrorCode: "PARSE_ERROR",
      lastProcessedErrors: [
        { code: "PARSE_ERROR", message: expect.stringContaining("could not be processed (RangeError)") },
      ],
    });
    expect(await w.test.jobs.pending()).toEqual([]);
    expect(await w.test.docsbase.jobs()).toMatchObject([
      { state: "dead", attempts: 1, error: expect.stringContaining("PermanentJobError") },
    ]);
  });
});
