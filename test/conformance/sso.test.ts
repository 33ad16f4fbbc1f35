import { GitBookAPI, MemberRole } from "@gitbook/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTestCertificate, type TestCertificate } from "../../src/core/sso/test-certificates.js";
import { createTestDocsbase } from "../../src/testing/double.js";
import { COVERAGE } from "./coverage.js";
import { createHarness, STORAGE_KINDS, statusOf, type Harness } from "./harness.js";

/** The SAML operations of the reference (docs/sso.md). */

describe.each(STORAGE_KINDS)("conformance: SAML single sign-on (%s)", (kind) => {
  let h: Harness;
  let valid: TestCertificate;
  let expired: TestCertificate;
  beforeAll(async () => {
    let now = Date.parse("2025-01-01T00:00:00Z");
    h = await createHarness(kind, { clock: () => new Date((now += 1000)) });
    valid = await makeTestCertificate({
      notBefore: new Date("2024-01-01T00:00:00Z"),
      notAfter: new Date("2030-01-01T00:00:00Z"),
    });
    expired = await makeTestCertificate({
      notBefore: new Date("2023-01-01T00:00:00Z"),
      notAfter: new Date("2024-01-01T00:00:00Z"),
    });
  });
  afterAll(async () => {
    h.expectCovered(COVERAGE.sso);
    h.expectConformant();
    await h.close();
  });

  it("manages SAML providers and lists the active ones as sign-in choices", async () => {
    const admin = await h.test.createUser("Admin", `sso-admin-${kind}@acme.test`);
    const writer = await h.test.createUser("Writer", `sso-writer-${kind}@acme.test`);
    const org = (await h.test.as(admin).createOrganization({ body: { title: "SSO" } })).id;
    const api = h.client(admin.token);
    await api.orgs.inviteUsersToOrganization(org, {
      emails: [`sso-writer-${kind}@acme.test`],
      role: MemberRole.Create,
    });
    const [invite] = (await h.test.as(writer).listUserInvites()).items;
    await h.test.as(writer).acceptUserInvite({ invitationId: invite!.id });
    const { data: team } = await api.orgs.createOrganizationTeam(org, { title: "Engineering" });

    const {
      data: pending,
      status,
      headers,
    } = await api.orgs.createOrganizationSamlProvider(org, {
      label: "Okta",
    });
    expect(status).toBe(201);
    expect(headers.get("location")).toBe(pending.urls.location);
    expect(pending).toMatchObject({ object: "saml-provider", label: "Okta", status: "pending" });
    expect(pending.service.startURL).toBe(`${h.test.endpoint}/sso/saml/${pending.id}/start`);
    expect((await api.orgs.listSsoProviderLoginsInOrganization(org)).data.items).toEqual([]);

    const { data: active } = await api.orgs.updateOrganizationSamlProvider(org, pending.id, {
      ssoURL: "https://acme.okta.example/app/sso/saml",
      entityID: "http://www.okta.com/exk1",
      certificate: valid.certificate,
      defaultTeam: team.id,
      defaultRole: MemberRole.Edit,
    });
    expect(active).toMatchObject({ status: "active", defaultRole: "edit", defaultTeam: { id: team.id } });
    expect((await api.orgs.getOrganizationSamlProviderById(org, pending.id)).data).toEqual(active);

    const { data: second } = await api.orgs.createOrganizationSamlProvider(org, {
      label: "Azure",
      ssoURL: "https://login.microsoftonline.example/tenant/saml2",
      entityID: "https://sts.windows.example/tenant/",
      certificate: valid.certificate,
      defaultRole: null,
    });
    expect(second).toMatchObject({ status: "active", defaultRole: null });
    const { data: page } = await api.orgs.listSamlProvidersInOrganizationById(org, { limit: 1 });
    expect(page.count).toBe(2);
    expect(page.items.map((item) => item.id)).toEqual([pending.id]);
    const { data: rest } = await api.orgs.listSamlProvidersInOrganizationById(org, { page: page.next!.page });
    expect(rest.items.map((item) => item.id)).toEqual([second.id]);

    // Members see the sign-in choices, not the configuration.
    const member = h.client(writer.token);
    const { data: logins } = await member.orgs.listSsoProviderLoginsInOrganization(org);
    expect(logins.items).toEqual([
      { id: pending.id, label: "Okta", startURL: active.service.startURL },
      { id: second.id, label: "Azure", startURL: second.service.startURL },
    ]);
    expect(await statusOf(member.orgs.listSamlProvidersInOrganizationById(org))).toBe(403);
    expect(await statusOf(member.orgs.getOrganizationSamlProviderById(org, second.id))).toBe(403);
    expect(await statusOf(member.orgs.createOrganizationSamlProvider(org, { label: "Mine" }))).toBe(403);
    expect(
      await statusOf(member.orgs.updateOrganizationSamlProvider(org, second.id, { label: "Mine" })),
    ).toBe(403);
    expect(await statusOf(member.orgs.deleteOrganizationSamlProvider(org, second.id))).toBe(403);

    // Refusals: an expired certificate, a private key, plain http, an over-long label.
    for (const body of [
      { certificate: expired.certificate },
      { certificate: valid.privateKey },
      { certificate: "garbage" },
      { ssoURL: "http://acme.okta.example/sso" },
      { label: "l".repeat(31) },
      { entityID: "e".repeat(1025) },
    ]) {
      expect(
        await statusOf(api.orgs.updateOrganizationSamlProvider(org, second.id, body)),
        JSON.stringify(body),
      ).toBe(400);
    }
    expect(await statusOf(api.orgs.createOrganizationSamlProvider(org, { label: "" }))).toBe(400);
    expect(await statusOf(api.orgs.getOrganizationSamlProviderById(org, "unknown"))).toBe(404);

    expect((await api.orgs.deleteOrganizationSamlProvider(org, pending.id)).status).toBe(205);
    expect((await api.orgs.deleteOrganizationSamlProvider(org, pending.id)).status).toBe(204);
    expect(
      (await api.orgs.listSsoProviderLoginsInOrganization(org)).data.items.map((item) => item.id),
    ).toEqual([second.id]);
  });
});

/** The worked example of docs/sso.md, run as written there (the doc's code is this code). */
it("runs the worked example of docs/sso.md", async () => {
  const test = await createTestDocsbase({ clock: () => new Date("2025-06-01T00:00:00Z") });
  const admin = await test.createUser("Admin", "admin@acme.example");
  const org = (await test.as(admin).createOrganization({ body: { title: "Acme" } })).id;
  const { certificate } = await makeTestCertificate({
    notBefore: new Date("2025-01-01T00:00:00Z"),
    notAfter: new Date("2027-01-01T00:00:00Z"),
  });
  const { certificate: expiredCertificate } = await makeTestCertificate({
    notBefore: new Date("2024-01-01T00:00:00Z"),
    notAfter: new Date("2024-12-31T00:00:00Z"),
  });
  const serviceBinding = { fetch: test.fetch };
  const base = test.endpoint;

  // --- docs/sso.md, "A worked example" (with `base` for http://127.0.0.1:8787) ---
  const api = new GitBookAPI({ endpoint: base, authToken: admin.token, serviceBinding });

  // 1. A provider with only its label is pending: its service URLs go to the identity provider.
  const { data: provider } = await api.orgs.createOrganizationSamlProvider(org, { label: "Okta" });
  expect(provider.status).toBe("pending");
  expect(provider.service.acsURL).toBe(`${base}/sso/saml/${provider.id}/acs`);

  // 2. With what the identity provider gives back, it becomes active.
  const { data: active } = await api.orgs.updateOrganizationSamlProvider(org, provider.id, {
    ssoURL: "https://acme.okta.example/app/docsbase/sso/saml",
    entityID: "http://www.okta.example/exk1acme",
    certificate,
    defaultRole: MemberRole.Read,
  });
  expect(active.status).toBe("active");

  // 3. A sign-in page lists the active providers, without a token.
  const anonymous = new GitBookAPI({ endpoint: base, serviceBinding });
  const { data: logins } = await anonymous.orgs.listSsoProviderLoginsInOrganization(org);
  expect(logins.items).toEqual([
    { id: provider.id, label: "Okta", startURL: `${base}/sso/saml/${provider.id}/start` },
  ]);

  // An expired certificate is refused with its date, and nothing changes.
  const refusal = await api.orgs
    .updateOrganizationSamlProvider(org, provider.id, { certificate: expiredCertificate })
    .catch((error: unknown) => error as { code: number; message: string });
  expect(refusal).toMatchObject({ code: 400 });
  expect((refusal as { message: string }).message).toContain(
    "body.certificate: has expired: it was valid until 2024-12-31T00:00:00.000Z",
  );
  // --- end of the example ---
  expect((await api.orgs.getOrganizationSamlProviderById(org, provider.id)).data).toEqual(active);
  await test.docsbase.close();
});
