import { beforeAll, describe, expect, it } from "vitest";
import { createWorkspace } from "../../../test/support/workspace.js";
import { answerOf, expectRefused, expectRefusedUnchanged } from "../../../test/support/limits.js";
import type { ClientInput } from "../client.js";
import type { Operations } from "../operations.js";
import { MAX_SAML_PROVIDERS } from "./schemas.js";
import { makeTestCertificate, type TestCertificate } from "./test-certificates.js";

/** The workspace clock starts at 2025-01-01. */
let valid: TestCertificate;
let expired: TestCertificate;
beforeAll(async () => {
  valid = await makeTestCertificate({
    notBefore: new Date("2024-06-01T00:00:00Z"),
    notAfter: new Date("2026-01-01T00:00:00Z"),
  });
  expired = await makeTestCertificate({
    notBefore: new Date("2023-01-01T00:00:00Z"),
    notAfter: new Date("2024-12-31T00:00:00Z"),
  });
});

const SSO_URL = "https://idp.example.com/sso/saml";
const ENTITY_ID = "https://idp.example.com/metadata";

/** `certificate` with spaces inside its base64 lines, until it is exactly `length` characters. */
function padded(certificate: string, length: number): string {
  const lines = certificate.trim().split("\n");
  const missing = length - lines.join("\n").length;
  lines[1] = lines[1]!.slice(0, 10) + " ".repeat(missing) + lines[1]!.slice(10);
  return lines.join("\n");
}

describe("SAML providers", () => {
  it("creates a pending provider from a label, activates it once configured, and lists its login", async () => {
    const { api, client, org, test } = await createWorkspace();
    const organizationId = org;
    const created = await api("POST", `/orgs/${org}/saml`, { label: "Okta" });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const provider = { organizationId, samlProviderId: id };
    const base = `${test.endpoint}/sso/saml/${id}`;
    expect(created.headers.get("location")).toBe(`${test.endpoint}/v1/orgs/${org}/saml/${id}`);
    expect(created.body).toEqual({
      object: "saml-provider",
      id,
      label: "Okta",
      ssoURL: "about:blank",
      entityID: "",
      certificate: "",
      defaultRole: "read",
      createdAt: "2025-01-01T00:00:00.000Z",
      status: "pending",
      service: { acsURL: `${base}/acs`, startURL: `${base}/start`, entityID: base },
      urls: { location: `${test.endpoint}/v1/orgs/${org}/saml/${id}` },
    });
    // Not offered for sign-in while pending; the login list needs no token.
    expect((await test.request("GET", `/orgs/${org}/sso`, { token: null })).body).toEqual({ items: [] });

    const partial = await client.updateOrganizationSAMLProvider({
      ...provider,
      body: { ssoURL: SSO_URL, entityID: ENTITY_ID },
    });
    expect(partial).toMatchObject({ status: "pending", ssoURL: SSO_URL, entityID: ENTITY_ID });
    const active = await client.updateOrganizationSAMLProvider({
      ...provider,
      body: { certificate: valid.certificate },
    });
    expect(active).toMatchObject({
      status: "active",
      label: "Okta",
      certificate: valid.certificate.trim(),
      ssoURL: SSO_URL,
      entityID: ENTITY_ID,
    });
    expect(await client.getOrganizationSAMLProviderById(provider)).toEqual(active);

    const logins = await test.request("GET", `/orgs/${org}/sso`, { token: null });
    expect(logins.status).toBe(200);
    expect(logins.body).toEqual({ items: [{ id, label: "Okta", startURL: `${base}/start` }] });

    // Fully configured at creation: active at once.
    const direct = await client.createOrganizationSAMLProvider({
      organizationId,
      body: {
        label: "Azure",
        ssoURL: SSO_URL,
        entityID: ENTITY_ID,
        certificate: valid.certificate,
        defaultRole: null,
      },
    });
    expect(direct).toMatchObject({ status: "active", defaultRole: null });
    const listed = await client.listSAMLProvidersInOrganizationById({ organizationId, limit: 1 });
    expect(listed.count).toBe(2);
    expect(listed.items.map((item) => item.id)).toEqual([id]);
    const next = await client.listSAMLProvidersInOrganizationById({
      organizationId,
      page: listed.next!.page,
    });
    expect(next.items.map((item) => item.label)).toEqual(["Azure"]);

    expect((await api("DELETE", `/orgs/${org}/saml/${id}`)).status).toBe(205);
    expect((await api("DELETE", `/orgs/${org}/saml/${id}`)).status).toBe(204);
    await expect(client.getOrganizationSAMLProviderById(provider)).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(
      client.updateOrganizationSAMLProvider({ ...provider, body: { label: "x" } }),
    ).rejects.toMatchObject({ code: "not_found" });
    expect(
      (await client.listSSOProviderLoginsInOrganization({ organizationId })).items.map((item) => item.label),
    ).toEqual(["Azure"]);
    expect((await test.request("GET", `/orgs/unknown/sso`, { token: null })).status).toBe(404);
  });

  it("refuses expired, garbage and private-key certificates, naming the field and the reason", async () => {
    const { client, org, advance } = await createWorkspace();
    const organizationId = org;
    const id = (await client.createOrganizationSAMLProvider({ organizationId, body: { label: "IdP" } })).id;
    const patch = (certificate: string) =>
      answerOf(
        client.updateOrganizationSAMLProvider({ organizationId, samlProviderId: id, body: { certificate } }),
      );
    const observe = () => client.getOrganizationSAMLProviderById({ organizationId, samlProviderId: id });
    await expectRefusedUnchanged(observe, [
      [() => patch(expired.certificate), "body.certificate"],
      [() => patch(valid.privateKey), "body.certificate"],
      [() => patch("garbage"), "body.certificate"],
      [
        () =>
          answerOf(
            client.createOrganizationSAMLProvider({
              organizationId,
              body: { label: "New", certificate: expired.certificate },
            }),
          ),
        "body.certificate",
      ],
    ]);
    expect((await patch(expired.certificate)).body.error.message).toBe(
      "body.certificate: has expired: it was valid until 2024-12-31T00:00:00.000Z",
    );
    expect((await patch(valid.privateKey)).body.error.message).toMatch(
      /^body\.certificate: is a private key/,
    );
    expect((await patch("garbage")).body.error.message).toMatch(
      /^body\.certificate: is not a PEM certificate/,
    );

    // Expiry is judged by the clock: the valid certificate is refused once it has expired.
    advance(Date.parse("2026-01-02T00:00:00Z") - Date.parse("2025-01-01T00:00:00Z"));
    expect((await patch(valid.certificate)).body.error.message).toBe(
      "body.certificate: has expired: it was valid until 2026-01-01T00:00:00.000Z",
    );
  });

  it("holds every limit at its boundary", async () => {
    const { api, client, org } = await createWorkspace();
    const organizationId = org;
    const id = (await client.createOrganizationSAMLProvider({ organizationId, body: { label: "IdP" } })).id;
    const observe = () => client.listSAMLProvidersInOrganizationById({ organizationId });
    type Update = NonNullable<ClientInput<Operations["updateOrganizationSAMLProvider"]>["body"]>;
    const patch = (body: Update) => () =>
      answerOf(client.updateOrganizationSAMLProvider({ organizationId, samlProviderId: id, body }));
    const create = (label: string) => () =>
      answerOf(client.createOrganizationSAMLProvider({ organizationId, body: { label } }));
    const longUrl = (length: number) => `https://idp.example.com/${"p".repeat(length - 24)}`;
    expect(longUrl(2048)).toHaveLength(2048);
    await expectRefusedUnchanged(observe, [
      // Bodies no client type allows, as JSON sent over HTTP.
      [() => api("POST", `/orgs/${org}/saml`, {}), "body.label"],
      [() => api("PATCH", `/orgs/${org}/saml/${id}`, { defaultRole: "owner" }), "body.defaultRole"],
      [create(""), "body.label"],
      [create("   "), "body.label"],
      [create("l".repeat(31)), "body.label"],
      [patch({ label: "l".repeat(31) }), "body.label"],
      [patch({ entityID: "e".repeat(1025) }), "body.entityID"],
      [patch({ entityID: "" }), "body.entityID"],
      [patch({ certificate: padded(valid.certificate, 10001) }), "body.certificate"],
      [patch({ ssoURL: longUrl(2049) }), "body.ssoURL"],
      [patch({ ssoURL: "http://idp.example.com/sso" }), "body.ssoURL"],
      [patch({ ssoURL: "javascript:alert(1)" }), "body.ssoURL"],
      [patch({ ssoURL: "idp.example.com" }), "body.ssoURL"],
      [patch({ defaultTeam: "no-such-team" }), "body.defaultTeam"],
    ]);
    await client.createOrganizationSAMLProvider({ organizationId, body: { label: "l" } });
    const longest = await client.updateOrganizationSAMLProvider({
      organizationId,
      samlProviderId: id,
      body: {
        label: "l".repeat(30),
        entityID: "e".repeat(1024),
        certificate: padded(valid.certificate, 10000),
        ssoURL: longUrl(2048),
      },
    });
    expect(longest).toMatchObject({ status: "active", label: "l".repeat(30) });
    expect(longest.certificate).toHaveLength(10000);
  });

  it("bounds what was sent, before trimming: whitespace cannot carry a value past its limit", async () => {
    const { api, org } = await createWorkspace();
    const id = (await api("POST", `/orgs/${org}/saml`, { label: "IdP" })).body.id as string;
    const patch = (body: object) => api("PATCH", `/orgs/${org}/saml/${id}`, body);
    const certificate = valid.certificate.trim();
    const pad = (text: string, length: number) => `\n ${text}${" \n".repeat(length)}`.slice(0, length);

    const atLimit = await patch({ certificate: pad(certificate, 10_000) });
    expect(atLimit.status, JSON.stringify(atLimit.body)).toBe(200);
    expect(atLimit.body.certificate).toBe(certificate);
    for (const [field, value] of [
      ["certificate", pad(certificate, 10_001)],
      ["label", pad("IdP", 31)],
      ["entityID", pad(ENTITY_ID, 1025)],
    ] as const) {
      const refused = await patch({ [field]: value });
      expect(refused.status, field).toBe(400);
      expect(refused.body.error.message).toMatch(new RegExp(`^body\\.${field}: Too big`));
    }
    expect((await api("GET", `/orgs/${org}/saml/${id}`)).body).toMatchObject({ label: "IdP", certificate });
    expect((await patch({ label: pad("IdP", 30), entityID: pad(ENTITY_ID, 1024) })).status).toBe(200);
  });

  it("takes a team of the organization as defaultTeam, and no other", async () => {
    const { api, client, org, organization } = await createWorkspace();
    const organizationId = org;
    const team = (await client.createOrganizationTeam({ organizationId, body: { title: "Engineering" } })).id;
    const elsewhere = await organization("Elsewhere");
    const foreign = (
      await client.createOrganizationTeam({ organizationId: elsewhere, body: { title: "Other" } })
    ).id;
    const refused = await answerOf(
      client.createOrganizationSAMLProvider({ organizationId, body: { label: "IdP", defaultTeam: foreign } }),
    );
    expectRefused(refused, "body.defaultTeam");
    expect(refused.body.error.message).toContain("is not a team of this organization");
    const created = await client.createOrganizationSAMLProvider({
      organizationId,
      body: { label: "IdP", defaultTeam: team },
    });
    expect(created.defaultTeam).toMatchObject({ object: "team", id: team, title: "Engineering" });
    // A deleted team is no longer reported.
    await api("DELETE", `/orgs/${org}/teams/${team}`);
    const read = await client.getOrganizationSAMLProviderById({ organizationId, samlProviderId: created.id });
    expect(read.defaultTeam).toBeUndefined();
  });

  it("lets admins alone manage providers; the login list needs no token", async () => {
    const { client, org, member, outsider, test } = await createWorkspace();
    const organizationId = org;
    const id = (
      await client.createOrganizationSAMLProvider({
        organizationId,
        body: { label: "IdP", ssoURL: SSO_URL, entityID: ENTITY_ID, certificate: valid.certificate },
      })
    ).id;
    const provider = { organizationId, samlProviderId: id };
    const creator = await member("create");
    const guest = await member(null);
    for (const [caller, code] of [
      [creator.client, "forbidden"],
      [guest.client, "forbidden"],
      [outsider.client, "not_found"],
    ] as const) {
      for (const call of [
        () => caller.listSAMLProvidersInOrganizationById({ organizationId }),
        () => caller.createOrganizationSAMLProvider({ organizationId, body: { label: "Mine" } }),
        () => caller.getOrganizationSAMLProviderById(provider),
        () => caller.updateOrganizationSAMLProvider({ ...provider, body: { label: "Mine" } }),
        () => caller.deleteOrganizationSAMLProvider(provider),
      ]) {
        await expect(call()).rejects.toMatchObject({ code });
      }
      // The sign-in choices show no configuration.
      const logins = await caller.listSSOProviderLoginsInOrganization({ organizationId });
      expect(Object.keys(logins.items[0]!)).toEqual(["id", "label", "startURL"]);
    }
    await expect(creator.client.getOrganizationSAMLProviderById(provider)).rejects.toMatchObject({
      message: expect.stringContaining('"admin" permission'),
    });
    expect((await test.request("GET", `/orgs/${org}/saml`, { token: null })).status).toBe(401);
    expect((await client.getOrganizationSAMLProviderById(provider)).label).toBe("IdP");
  });

  it(`keeps at most ${MAX_SAML_PROVIDERS} providers in an organization`, async () => {
    const { client, org } = await createWorkspace();
    const create = (label: string) =>
      client.createOrganizationSAMLProvider({ organizationId: org, body: { label } });
    for (let index = 0; index < MAX_SAML_PROVIDERS; index++) await create(`IdP ${index}`);
    await expect(create("One more")).rejects.toMatchObject({
      code: "bad_request",
      message: expect.stringContaining(`at most ${MAX_SAML_PROVIDERS} SAML providers`),
    });
  });
});
