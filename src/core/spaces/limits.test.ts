import { describe, expect, it } from "vitest";
import { createWorkspace } from "../../../test/support/workspace.js";
import { expectRefusedUnchanged, LONG_ID, LONGEST_ID } from "../../../test/support/limits.js";

/** Input limits of the space operations (docs/api.md, "Limits"). */
describe("spaces: input limits", () => {
  it("bounds space ids, parents, positions, templates, texts, merge rules and page tokens", async () => {
    const { api, org, space } = await createWorkspace();
    const first = await space({ title: "First" });
    const second = await space({ title: "Second" });
    const observe = async () => ({
      list: (await api("GET", `/orgs/${org}/spaces`)).body,
      first: (await api("GET", `/spaces/${first}`)).body,
    });
    const rules = Array.from({ length: 101 }, () => ({ rule: "require_at_least_one_review" }));
    await expectRefusedUnchanged(observe, [
      [() => api("GET", `/spaces/${LONG_ID}`), "path.spaceId"],
      [() => api("DELETE", `/spaces/${LONG_ID}`), "path.spaceId"],
      [() => api("GET", `/spaces/${first}?shareKey=${LONG_ID}`), "query.shareKey"],
      [() => api("POST", `/orgs/${org}/spaces`, { parent: LONG_ID }), "body.parent"],
      [() => api("POST", `/orgs/${org}/spaces`, { template: { id: LONG_ID } }), "body.template.id"],
      [() => api("POST", `/orgs/${org}/spaces`, { emoji: "e".repeat(51) }), "body.emoji"],
      [() => api("PATCH", `/spaces/${first}`, { title: "t".repeat(51) }), "body.title"],
      [
        () => api("PATCH", `/spaces/${first}`, { mergeRules: { type: "rules", rules } }),
        "body.mergeRules.rules",
      ],
      [() => api("POST", `/spaces/${first}/move`, { parent: LONG_ID }), "body.parent"],
      [
        () =>
          api("POST", `/spaces/${first}/move`, { position: { before: { type: "space", space: LONG_ID } } }),
        "body.position.before.space",
      ],
      [() => api("POST", `/spaces/${first}/transfer`, { organization: LONG_ID }), "body.organization"],
      [() => api("POST", `/spaces/${LONG_ID}/restore`), "path.spaceId"],
      [() => api("GET", `/orgs/${org}/spaces?page=${"p".repeat(8193)}`), "query.page"],
    ]);

    // Ordinary values and values at the bounds still pass validation.
    expect((await api("GET", `/spaces/${LONGEST_ID}`)).status).toBe(404);
    expect((await api("GET", `/spaces/${first}?shareKey=${LONGEST_ID}`)).status).toBe(200);
    const moved = await api("POST", `/spaces/${second}/move`, {
      position: { before: { type: "space", space: first } },
    });
    expect(moved.status).toBe(200);
    const updated = await api("PATCH", `/spaces/${first}`, {
      emoji: "🚀",
      mergeRules: { type: "rules", rules: rules.slice(0, 100) },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.mergeRules.rules).toHaveLength(100);
  });
});
