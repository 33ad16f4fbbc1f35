import { beforeAll, describe, expect, it } from "vitest";
import { createWorkspace } from "../../../test/support/workspace.js";
import { expectRefused, expectRefusedUnchanged } from "../../../test/support/limits.js";
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
    const { api, org, test } = await createWorkspace();
    const created = await api("POST", `/orgs/${org}/saml`, { label: "Okta" });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
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
    // Not offered for sign-in while pending.
    expect((await test.request("GET", `/orgs/${org}/sso`, { token: null })).body).toEqual({ items: [] });

    const partial = await api("PATCH", `/orgs/${org}/saml/${id}`, { ssoURL: SSO_URL, entityID: ENTITY_ID });
    expect(partial.body).toMatchObject({ status: "pending", ssoURL: SSO_URL, entityID: ENTITY_ID });
    const active = await api("PATCH", `/orgs/${org}/saml/${id}`, { certificate: valid.certificate });
    expect(active.status).toBe(200);
    expect(active.body).toMatchObject({
      status: "active",
      label: "Okta",
      certificate: valid.certificate.trim(),
      ssoURL: SSO_URL,
      entityID: ENTITY_ID,
    });
    expect((await api("GET", `/orgs/${org}/saml/${id}`)).body).toEqual(active.body);

    const logins = await test.request("GET", `/orgs/${org}/sso`, { token: null });
    expect(logins.status).toBe(200);
    expect(logins.body).toEqual({ items: [{ id, label: "Okta", startURL: `${base}/start` }] });

    // Fully configured at creation: active at once.
    const direct = await api("POST", `/orgs/${org}/saml`, {
      label: "Azure",
      ssoURL: SSO_URL,
      entityID: ENTITY_ID,
      certificate: valid.certificate,
      defaultRole: null,
    });
    expect(direct.body).toMatchObject({ status: "active", defaultRole: null });
    const listed = await api("GET", `/orgs/${org}/saml?limit=1`);
    expect(listed.body.count).toBe(2);
    expect(listed.body.items.map((item: { id: string }) => item.id)).toEqual([id]);
    const next = await api("GET", `/orgs/${org}/saml?page=${listed.body.next.page}`);
    expect(next.body.items.map((item: { label: string }) => item.label)).toEqual(["Azure"]);

    expect((await api("DELETE", `/orgs/${org}/saml/${id}`)).status).toBe(205);
    expect((await api("DELETE", `/orgs/${org}/saml/${id}`)).status).toBe(204);
    expect((await api("GET", `/orgs/${org}/saml/${id}`)).status).toBe(404);
    expect((await api("PATCH", `/orgs/${org}/saml/${id}`, { label: "x" })).status).toBe(404);
    expect((await test.request("GET", `/orgs/${org}/sso`)).body.items.map((item: any) => item.label)).toEqual(
      ["Azure"],
    );
    expect((await test.request("GET", `/orgs/unknown/sso`, { token: null })).status).toBe(404);
  });

  it("refuses expired, garbage and private-key certificates, naming the field and the reason", async () => {
    const { api, org, advance } = await createWorkspace();
    const id = (await api("POST", `/orgs/${org}/saml`, { label: "IdP" })).body.id as string;
    const observe = async () => (await api("GET", `/orgs/${org}/saml/${id}`)).body;
    await expectRefusedUnchanged(observe, [
      [
        () => api("PATCH", `/orgs/${org}/saml/${id}`, { certificate: expired.certificate }),
        "body.certificate",
      ],
      [() => api("PATCH", `/orgs/${org}/saml/${id}`, { certificate: valid.privateKey }), "body.certificate"],
      [() => api("PATCH", `/orgs/${org}/saml/${id}`, { certificate: "garbage" }), "body.certificate"],
      [
        () => api("POST", `/orgs/${org}/saml`, { label: "New", certificate: expired.certificate }),
        "body.certificate",
      ],
    ]);
    const answer = await api("PATCH", `/orgs/${org}/saml/${id}`, { certificate: expired.certificate });
    expect(answer.body.error.message).toBe(
      "body.certificate: has expired: it was valid until 2024-12-31T00:00:00.000Z",
    );
    const key = await api("PATCH", `/orgs/${org}/saml/${id}`, { certificate: valid.privateKey });
    expect(key.body.error.message).toMatch(/^body\.certificate: is a private key/);
    const garbage = await api("PATCH", `/orgs/${org}/saml/${id}`, { certificate: "garbage" });
    expect(garbage.body.error.message).toMatch(/^body\.certificate: is not a PEM certificate/);

    // Expiry is judged by the clock: the valid certificate is refused once it has expired.
    advance(Date.parse("2026-01-02T00:00:00Z") - Date.parse("2025-01-01T00:00:00Z"));
    const late = await api("PATCH", `/orgs/${org}/saml/${id}`, { certificate: valid.certificate });
    expect(late.body.error.message).toBe(
      "body.certificate: has expired: it was valid until 2026-01-01T00:00:00.000Z",
    );
  });

  it("holds every limit at its boundary", async () => {
    const { api, org } = await createWorkspace();
    const id = (await api("POST", `/orgs/${org}/saml`, { label: "IdP" })).body.id as string;
    const observe = async () => (await api("GET", `/orgs/${org}/saml`)).body;
    const patch = (body: object) => () => api("PATCH", `/orgs/${org}/saml/${id}`, body);
    const longUrl = (length: number) => `https://idp.example.com/${"p".repeat(length - 24)}`;
    expect(longUrl(2048)).toHaveLength(2048);
    await expectRefusedUnchanged(observe, [
      [() => api("POST", `/orgs/${org}/saml`, {}), "body.label"],
      [() => api("POST", `/orgs/${org}/saml`, { label: "" }), "body.label"],
      [() => api("POST", `/orgs/${org}/saml`, { label: "   " }), "body.label"],
      [() => api("POST", `/orgs/${org}/saml`, { label: "l".repeat(31) }), "body.label"],
      [patch({ label: "l".repeat(31) }), "body.label"],
      [patch({ entityID: "e".repeat(1025) }), "body.entityID"],
      [patch({ entityID: "" }), "body.entityID"],
      [patch({ certificate: padded(valid.certificate, 10001) }), "body.certificate"],
      [patch({ ssoURL: longUrl(2049) }), "body.ssoURL"],
      [patch({ ssoURL: "http://idp.example.com/sso" }), "body.ssoURL"],
      [patch({ ssoURL: "javascript:alert(1)" }), "body.ssoURL"],
      [patch({ ssoURL: "idp.example.com" }), "body.ssoURL"],
      [patch({ defaultRole: "owner" }), "body.defaultRole"],
      [patch({ defaultTeam: "no-such-team" }), "body.defaultTeam"],
    ]);
    expect((await api("POST", `/orgs/${org}/saml`, { label: "l" })).status).toBe(201);
    const longest = await api("PATCH", `/orgs/${org}/saml/${id}`, {
      label: "l".repeat(30),
      entityID: "e".repeat(1024),
      certificate: padded(valid.certificate, 10000),
      ssoURL: longUrl(2048),
    });
    expect(longest.status, JSON.stringify(longest.body)).toBe(200);
    expect(longest.body).toMatchObject({ status: "active", label: "l".repeat(30) });
    expect(longest.body.certificate).toHaveLength(10000);
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
    const { api, org, organization } = await createWorkspace();
    const team = (await api("PUT", `/orgs/${org}/teams`, { title: "Engineering" })).body.id as string;
    const elsewhere = await organization("Elsewhere");
    const foreign = (await api("PUT", `/orgs/${elsewhere}/teams`, { title: "Other" })).body.id as string;
    const refused = await api("POST", `/orgs/${org}/saml`, { label: "IdP", defaultTeam: foreign });
    expectRefused(refused, "body.defaultTeam");
    expect(refused.body.error.message).toContain("is not a team of this organization");
    const created = await api("POST", `/orgs/${org}/saml`, { label: "IdP", defaultTeam: team });
    expect(created.body.defaultTeam).toMatchObject({ object: "team", id: team, title: "Engineering" });
    // A deleted team is no longer reported.
    await api("DELETE", `/orgs/${org}/teams/${team}`);
    const read = await api("GET", `/orgs/${org}/saml/${created.body.id}`);
    expect(read.body.defaultTeam).toBeUndefined();
  });

  it("lets admins alone manage providers; the login list needs no token", async () => {
    const { api, org, member, outsider, test } = await createWorkspace();
    const id = (
      await api("POST", `/orgs/${org}/saml`, {
        label: "IdP",
        ssoURL: SSO_URL,
        entityID: ENTITY_ID,
        certificate: valid.certificate,
      })
    ).body.id as string;
    const creator = await member("create");
    const guest = await member(null);
    for (const [caller, status] of [
      [creator, 403],
      [guest, 403],
      [outsider, 404],
    ] as const) {
      expect((await caller("GET", `/orgs/${org}/saml`)).status).toBe(status);
      expect((await caller("POST", `/orgs/${org}/saml`, { label: "Mine" })).status).toBe(status);
      expect((await caller("GET", `/orgs/${org}/saml/${id}`)).status).toBe(status);
      expect((await caller("PATCH", `/orgs/${org}/saml/${id}`, { label: "Mine" })).status).toBe(status);
      expect((await caller("DELETE", `/orgs/${org}/saml/${id}`)).status).toBe(status);
      // The sign-in choices show no configuration.
      const logins = await caller("GET", `/orgs/${org}/sso`);
      expect(logins.status).toBe(200);
      expect(Object.keys(logins.body.items[0])).toEqual(["id", "label", "startURL"]);
    }
    const refusal = await creator("GET", `/orgs/${org}/saml/${id}`);
    expect(refusal.body.error.message).toContain('"admin" permission');
    expect((await test.request("GET", `/orgs/${org}/saml`, { token: null })).status).toBe(401);
    expect((await api("GET", `/orgs/${org}/saml/${id}`)).body.label).toBe("IdP");
  });

  it(`keeps at most ${MAX_SAML_PROVIDERS} providers in an organization`, async () => {
    const { api, org } = await createWorkspace();
    for (let index = 0; index < MAX_SAML_PROVIDERS; index++) {
      expect((await api("POST", `/orgs/${org}/saml`, { label: `IdP ${index}` })).status).toBe(201);
    }
    const refused = await api("POST", `/orgs/${org}/saml`, { label: "One more" });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain(`at most ${MAX_SAML_PROVIDERS} SAML providers`);
  });
});
