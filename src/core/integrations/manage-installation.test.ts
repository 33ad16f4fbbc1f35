import { describe, expect, it } from "vitest";
import { integrationDefinition } from "../../../test/support/integrations.js";
import { createWorkspace } from "../../../test/support/workspace.js";
import { randomId } from "../shared/world.js";
import { issueIntegrationToken } from "../users/integration-token.js";
import { installationsTable } from "./tables.js";

/**
 * One installation by its id, and an organization's installations (docs/integrations.md,
 * "Installations"). The workspace's organization is the customer: its owner installs there an
 * integration published by a developer who is no member of it.
 */

async function setup() {
  const w = await createWorkspace();
  const developerUser = await w.test.createUser("Developer");
  const developer = w.as(developerUser.token);
  const developerOrg = (await developer("POST", "/orgs", { title: "Developer org" })).body.id as string;
  const published = await developer(
    "POST",
    "/integrations/kv",
    integrationDefinition(developerOrg, {
      visibility: "public",
      title: "Key store",
      configurations: {
        account: {
          properties: {
            key: { type: "string", title: "Key" },
            mode: { type: "string", enum: ["fast", "safe"] },
            count: { type: "number" },
            sync: { type: "button", callback_url: "https://kv.example/sync", button_text: "Sync" },
          },
          required: ["key"],
        },
      },
    }),
  );
  if (published.status !== 200) throw new Error(JSON.stringify(published.body));
  await developer(
    "POST",
    "/integrations/other",
    integrationDefinition(developerOrg, { visibility: "public" }),
  );
  const installed = await w.api("POST", "/integrations/kv/installations", { organization: w.org });
  const installation = installed.body.id as string;
  const path = `/integrations/kv/installations/${installation}`;
  const editor = await w.member("edit");
  /** An integration token of `name`, as the integration receives it with an event. */
  const integrationToken = (name: string) =>
    w.storage.write((tx) => issueIntegrationToken(tx, { clock: () => new Date(), ids: randomId }, name));
  return { w, developer, developerOrg, installation, path, editor, integrationToken };
}

describe("getIntegrationInstallationById", () => {
  it("answers the installation to those who see it, 404 to others", async () => {
    const { w, developer, editor, installation, path } = await setup();
    const answer = await w.api("GET", path);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      id: installation,
      status: "active",
      target: { organization: w.org },
    });
    // The organization's members, and the integration owner's admins, see it.
    expect((await editor("GET", path)).status).toBe(200);
    expect((await developer("GET", path)).status).toBe(200);
    expect((await w.outsider("GET", path)).status).toBe(404);
    expect((await w.api("GET", "/integrations/kv/installations/nope")).status).toBe(404);
    // Under another integration's name, it is not found.
    expect((await w.api("GET", `/integrations/other/installations/${installation}`)).status).toBe(404);
  });

  it("refuses integration and installation tokens: the reference's security is a user's", async () => {
    const { w, path, installation, integrationToken } = await setup();
    const token = await integrationToken("kv");
    for (const [method, body] of [["GET"], ["PATCH", { externalIds: ["x"] }], ["DELETE"]] as const) {
      expect((await w.as(token)(method, path, body)).status).toBe(403);
    }
    const created = await w.as(token)("POST", `${path}/tokens`);
    expect(created.status).toBe(200);
    expect((await w.as(created.body.token)("GET", path)).status).toBe(403);
    expect((await w.as(created.body.token)("DELETE", path)).status).toBe(403);
    expect(await w.stored(installationsTable, installation)).toBeDefined();
  });
});

describe("updateIntegrationInstallation", () => {
  it("sets external ids and a configuration, and records an installation_setup event", async () => {
    const { w, developer, path, installation } = await setup();
    w.advance(1000);
    const updated = await w.api("PATCH", path, {
      externalIds: ["acct-1", "acct-2"],
      configuration: { key: "abc", mode: "safe", count: 3 },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      id: installation,
      externalIds: ["acct-1", "acct-2"],
      configuration: { key: "abc", mode: "safe", count: 3 },
    });
    expect(updated.body.updatedAt).not.toBe(updated.body.createdAt);
    expect((await w.api("GET", path)).body.configuration).toEqual({ key: "abc", mode: "safe", count: 3 });
    // The external id filter of the integration's installations finds it.
    const byExternalId = await developer("GET", "/integrations/kv/installations?externalId=acct-2");
    expect(byExternalId.body.items.map((item: { id: string }) => item.id)).toEqual([installation]);

    const events = (await w.api("GET", "/integrations/kv/events")).body.items;
    expect(events[0].payload).toMatchObject({
      type: "installation_setup",
      installationId: installation,
      status: "active",
      previous: { status: "active", configuration: {} },
    });
    // An update that changes nothing records nothing.
    await w.api("PATCH", path, { externalIds: ["acct-1", "acct-2"] });
    expect((await w.api("GET", "/integrations/kv/events")).body.items).toHaveLength(events.length);
  });

  it("answers 400 naming the field for input the integration does not declare, and stores nothing", async () => {
    const { w, path, installation } = await setup();
    const before = await w.stored(installationsTable, installation);
    const cases: [unknown, string][] = [
      [{ configuration: { key: "a", nope: 1 } }, "body.configuration.nope"],
      [{ configuration: { key: "a", count: "3" } }, "body.configuration.count"],
      [{ configuration: { key: "a", mode: "slow" } }, "body.configuration.mode"],
      [{ configuration: { key: "a", sync: true } }, "body.configuration.sync"],
      [{ configuration: { mode: "fast" } }, "body.configuration.key"],
      [{ configuration: { key: "x".repeat(40_000) } }, "body.configuration"],
      [{ configuration: [] }, "body.configuration"],
      [{ externalIds: ["1", "2", "3", "4", "5", "6"] }, "body.externalIds"],
      [{ externalIds: ["a", "a"] }, "body.externalIds"],
      [{ externalIds: [""] }, "body.externalIds"],
      [{ space_selection: "selected" }, "body.space_selection"],
      [{ site_selection: "some" }, "body.site_selection"],
    ];
    for (const [body, field] of cases) {
      const answer = await w.api("PATCH", path, body);
      expect([field, answer.status]).toEqual([field, 400]);
      expect(answer.body.error.message).toContain(field);
    }
    expect(await w.stored(installationsTable, installation)).toEqual(before);
  });

  it("takes no configuration for an integration that declares none", async () => {
    const { w, developerOrg, developer } = await setup();
    await developer(
      "POST",
      "/integrations/plain",
      integrationDefinition(developerOrg, { visibility: "public" }),
    );
    const id = (await w.api("POST", "/integrations/plain/installations", { organization: w.org })).body.id;
    const path = `/integrations/plain/installations/${id}`;
    const refused = await w.api("PATCH", path, { configuration: { key: "a" } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain("body.configuration.key");
    expect((await w.api("PATCH", path, { configuration: {}, externalIds: ["e"] })).status).toBe(200);
  });

  it("is for those who may install in the installation's organization", async () => {
    const { w, developer, editor, path, installation } = await setup();
    const before = await w.stored(installationsTable, installation);
    expect((await editor("PATCH", path, { externalIds: ["e"] })).status).toBe(403);
    // The integration owner's admins see every installation but manage none outside their own.
    expect((await developer("PATCH", path, { externalIds: ["e"] })).status).toBe(403);
    expect((await w.outsider("PATCH", path, { externalIds: ["e"] })).status).toBe(404);
    expect((await w.api("PATCH", "/integrations/kv/installations/nope", { externalIds: ["e"] })).status).toBe(
      404,
    );
    expect(await w.stored(installationsTable, installation)).toEqual(before);
  });
});

describe("uninstallIntegration", () => {
  it("removes the installation from every read, records installation_deleted, and answers 204 after", async () => {
    const { w, path, installation } = await setup();
    await w.space({ title: "Guide" });
    expect((await w.api("GET", "/integrations/kv/spaces")).body.items).toHaveLength(1);
    await w.api("PATCH", path, { configuration: { key: "k" } });

    expect((await w.api("DELETE", path)).status).toBe(205);
    expect((await w.api("GET", path)).status).toBe(404);
    expect((await w.api("GET", "/integrations/kv/installations")).body.items).toEqual([]);
    expect((await w.api("GET", "/integrations/kv/spaces")).body.items).toEqual([]);
    expect((await w.api("GET", "/integrations/kv/sites")).body.items).toEqual([]);
    expect((await w.api("GET", `/orgs/${w.org}/installations`)).body.items).toEqual([]);
    expect((await w.api("DELETE", path)).status).toBe(204);
    expect((await w.api("PATCH", path, { externalIds: [] })).status).toBe(404);

    const [event] = (await w.api("GET", "/integrations/kv/events")).body.items;
    expect(event.payload).toMatchObject({
      type: "installation_deleted",
      installationId: installation,
      previous: { configuration: { key: "k" } },
    });
    // It can be installed again, as a new installation.
    const again = await w.api("POST", "/integrations/kv/installations", { organization: w.org });
    expect(again.status).toBe(201);
    expect(again.body.id).not.toBe(installation);
  });

  it("revokes the installation's tokens at once", async () => {
    const { w, path, integrationToken } = await setup();
    const space = await w.space({ title: "Guide" });
    const integration = w.as(await integrationToken("kv"));
    const token = (await integration("POST", `${path}/tokens`)).body.token as string;
    expect((await w.as(token)("GET", `/spaces/${space}`)).status).toBe(200);
    expect((await w.api("DELETE", path)).status).toBe(205);
    const after = await w.as(token)("GET", `/spaces/${space}`);
    expect(after.status).toBe(401);
    expect(after.body.error.message).toContain("uninstalled");
    expect((await w.as(token)("GET", `/orgs/${w.org}/spaces`)).status).toBe(401);
    // Reinstalling makes a new installation: the old token stays revoked.
    await w.api("POST", "/integrations/kv/installations", { organization: w.org });
    expect((await w.as(token)("GET", `/spaces/${space}`)).status).toBe(401);
    // Another installation's path: nothing to create a token for.
    expect((await integration("POST", `${path}/tokens`)).status).toBe(404);
  });

  it("is for those who may install in the installation's organization", async () => {
    const { w, developer, editor, path, installation } = await setup();
    expect((await editor("DELETE", path)).status).toBe(403);
    expect((await developer("DELETE", path)).status).toBe(403);
    // One the caller cannot see is, for them, none: judged by their own organizations (the
    // delete rule): 204 to an admin of one, 404 to a member of none.
    const elsewhere = await w.test.createUser("Elsewhere");
    await w.as(elsewhere.token)("POST", "/orgs", { title: "Elsewhere" });
    expect((await w.as(elsewhere.token)("DELETE", path)).status).toBe(204);
    expect((await w.outsider("DELETE", path)).status).toBe(404);
    expect((await editor("DELETE", "/integrations/kv/installations/nope")).status).toBe(403);
    expect((await w.api("DELETE", "/integrations/no-such/installations/x")).status).toBe(404);
    expect(await w.stored(installationsTable, installation)).toBeDefined();
  });
});

describe("listOrganizationInstallations", () => {
  it("lists the organization's integrations with their installations, for its admins", async () => {
    const { w, developerOrg, developer, installation, editor } = await setup();
    await w.api("POST", "/integrations/other/installations", { organization: w.org });
    // Installed elsewhere only: not listed.
    await developer("POST", "/integrations/kv/installations", { organization: developerOrg });

    const listed = await w.api("GET", `/orgs/${w.org}/installations`);
    expect(listed.status).toBe(200);
    expect(listed.body.count).toBe(2);
    expect(listed.body.items.map((item: { integration: { name: string } }) => item.integration.name)).toEqual(
      ["kv", "other"],
    );
    expect(listed.body.items[0]).toMatchObject({
      integration: { object: "integration", name: "kv", title: "Key store" },
      installation: { id: installation, target: { organization: w.org } },
    });
    const searched = await w.api("GET", `/orgs/${w.org}/installations?search=KEY`);
    expect(searched.body.items.map((item: { installation: { id: string } }) => item.installation.id)).toEqual(
      [installation],
    );
    const paged = await w.api("GET", `/orgs/${w.org}/installations?limit=1`);
    expect(paged.body.items).toHaveLength(1);
    expect(
      (await w.api("GET", `/orgs/${w.org}/installations?page=${paged.body.next.page}`)).body.items,
    ).toEqual([listed.body.items[1]]);

    expect((await editor("GET", `/orgs/${w.org}/installations`)).status).toBe(403);
    expect((await w.outsider("GET", `/orgs/${w.org}/installations`)).status).toBe(404);
    expect((await w.api("GET", `/orgs/${w.org}/installations?search=${"x".repeat(300)}`)).status).toBe(400);
  });
});
