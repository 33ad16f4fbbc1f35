import { promises as dns } from "node:dns";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDocsbase, type TestDocsbaseOptions } from "../src/testing/index.js";
import { startTxtServer, type TxtServer } from "./support/dns-server.js";

/**
 * Hostname claims (issue 28, item 10; docs/sites.md, "Custom hostnames"): a site answers for a
 * hostname only once a TXT record or the operator verifies its claim. TXT records are served by a
 * real DNS server on 127.0.0.1, read by node's resolver.
 */
describe("hostname claims", () => {
  let server: TxtServer;
  let resolver: dns.Resolver;
  beforeAll(async () => {
    server = await startTxtServer();
    resolver = new dns.Resolver({ timeout: 2000, tries: 1 });
    resolver.setServers([server.address]);
  });
  afterAll(() => server.close());

  const HOST = "docs.victim.example";
  const CHALLENGE = `_docsbase-challenge.${HOST}`;

  /** Two organizations, each with an admin and a published site. */
  async function setup(options: TestDocsbaseOptions = {}) {
    server.records.clear();
    const test = await createTestDocsbase({
      hostnames: {
        resolveTxt: async (name) => (await resolver.resolveTxt(name)).map((parts) => parts.join("")),
      },
      ...options,
    });
    const tenant = async (name: string) => {
      const user = await test.createUser(name);
      const client = test.as(user);
      const organizationId = (await client.createOrganization({ body: { title: name } })).id;
      const spaceId = (await client.createSpace({ organizationId, body: { title: "Docs" } })).id;
      await client.createPage({ spaceId, body: { title: "Intro", markdown: "Hi" } });
      const siteId = (await client.createSite({ organizationId, body: { title: name, spaces: [spaceId] } }))
        .id;
      const params = { organizationId, siteId };
      await client.publishSite(params);
      const claim = (hostname: string | null = HOST) =>
        client.updateSiteById({ ...params, body: { hostname } });
      const verify = () =>
        test.request("POST", `/orgs/${organizationId}/sites/${siteId}/hostname/verify`, {
          token: user.token,
        });
      const approve = () => test.request("POST", `/orgs/${organizationId}/sites/${siteId}/hostname/approve`);
      const site = () => client.getSiteById(params);
      return { user, client, params, siteId, claim, verify, approve, site };
    };
    const lookup = async (url = `https://${HOST}/`) =>
      test.request("GET", `/urls/published?url=${encodeURIComponent(url)}`, { token: null });
    const owner = await tenant("Victim");
    const squatter = await tenant("Squatter");
    return { test, owner, squatter, lookup };
  }

  it("lets no tenant squat a hostname: a pending claim blocks nobody and answers no lookup", async () => {
    const { test, owner, squatter, lookup } = await setup();
    const squatted = await squatter.claim();
    expect(squatted.hostname).toBe(HOST);
    expect(squatted.urls.published).toBe(`http://docsbase.test/sites/${squatter.siteId}/`);
    expect((await lookup()).status).toBe(404);
    // The real owner claims it too (no 409), and proves it in DNS.
    const claimed = await owner.claim();
    expect(claimed.hostnameVerification).toMatchObject({
      status: "pending",
      record: {
        type: "TXT",
        name: CHALLENGE,
        value: expect.stringMatching(/^docsbase-verification=\w{32}$/),
      },
    });
    server.records.set(CHALLENGE, [claimed.hostnameVerification!.record.value]);
    // The squatter's claim does not verify with the owner's record.
    expect((await squatter.verify()).status).toBe(200);
    expect((await owner.verify()).status).toBe(200);
    await test.jobs.drain();
    expect((await squatter.site()).hostnameVerification).toMatchObject({
      failure: expect.stringContaining(`No TXT record`),
    });
    const verified = await owner.site();
    expect(verified.hostnameVerification).toBeUndefined();
    expect(verified.urls.published).toBe(`https://${HOST}/`);
    const found = await lookup(`https://${HOST}/intro`);
    expect(found.status).toBe(200);
    expect(found.body.site).toBe(owner.siteId);
    // A hostname another site answers for cannot be verified again, even by the operator.
    const again = await squatter.verify();
    expect(again.status).toBe(409);
    expect(again.body.error.message).toMatch(/^hostname: .*already verified by another site/);
    expect((await squatter.approve()).status).toBe(409);
  });

  it("keeps a claim pending on a missing or wrong record, and the site answering where it did", async () => {
    const { test, owner, lookup } = await setup();
    await owner.claim("docs.old.example");
    await owner.approve();
    const pending = await owner.claim();
    const value = pending.hostnameVerification!.record.value;
    expect(pending.urls.published).toBe("https://docs.old.example/");
    await owner.verify();
    await test.jobs.drain();
    const missing = (await owner.site()).hostnameVerification;
    expect(missing).toMatchObject({ status: "pending", failure: expect.stringContaining(CHALLENGE) });
    expect(missing?.failure).not.toMatch(/ENOTFOUND|ENODATA|127\.0\.0\.1/);
    server.records.set(CHALLENGE, [`${value}x`, "v=spf1 -all"]);
    await owner.verify();
    await test.jobs.drain();
    expect((await owner.site()).hostnameVerification?.failure).toContain("No TXT record");
    expect((await lookup()).status).toBe(404);
    expect((await lookup("https://docs.old.example/")).body.site).toBe(owner.siteId);
    server.records.set(CHALLENGE, ["v=spf1 -all", value]);
    await owner.verify();
    await test.jobs.drain();
    expect((await lookup()).body.site).toBe(owner.siteId);
    expect((await lookup("https://docs.old.example/")).status).toBe(404);
    // With no claim pending, verifying answers 400.
    expect((await owner.verify()).body.error.message).toMatch(/^hostname: /);
  });

  it("lets only the operator approve a claim without DNS", async () => {
    const { test, owner, squatter, lookup } = await setup({ hostnames: { resolveTxt: null } });
    await owner.claim();
    await owner.verify();
    await test.jobs.drain();
    expect((await owner.site()).hostnameVerification?.failure).toMatch(/cannot read DNS records/);
    const byAdmin = await test.request(
      "POST",
      `/orgs/${owner.params.organizationId}/sites/${owner.siteId}/hostname/approve`,
      {
        token: owner.user.token,
      },
    );
    expect(byAdmin.status).toBe(403);
    expect((await lookup()).status).toBe(404);
    expect((await owner.approve()).status).toBe(200);
    expect((await lookup()).body.site).toBe(owner.siteId);
    // The operator names the site in its own organization.
    const wrongOrg = await test.request(
      "POST",
      `/orgs/${squatter.params.organizationId}/sites/${owner.siteId}/hostname/approve`,
    );
    expect(wrongOrg.status).toBe(404);
  });

  it("answers for a hostname at once, first come first served, when verification is off", async () => {
    const { owner, squatter, lookup } = await setup({ hostnames: { verify: false } });
    const set = await owner.claim();
    expect(set.hostnameVerification).toBeUndefined();
    expect((await lookup()).body.site).toBe(owner.siteId);
    await expect(squatter.claim()).rejects.toMatchObject({
      code: "conflict",
      message: expect.stringMatching(/^body\.hostname: /),
    });
  });
});
