import { base64url, decodeJwt } from "jose";
import { describe, expect, it } from "vitest";
import { createWorkspace } from "../../../test/support/workspace.js";
import { siteTokenKey } from "../users/site-token.js";
import { signVisitorToken } from "../visitors/visitor-token.js";

/**
 * `getPublishedContentByUrl` and `resolvePublishedContentByUrl`: URL forms, sections and site
 * spaces, paths that are not pages, share keys, visitor tokens and unsigned claims.
 */
async function setup() {
  const w = await createWorkspace();
  const docs = await w.space({ title: "Docs" });
  const reference = await w.space({ title: "Reference" });
  const intro = await w.client.createPage({ spaceId: docs, body: { title: "Intro", markdown: "Hi" } });
  await w.client.createPage({ spaceId: docs, body: { title: "Install", parent: intro.id } });
  await w.client.createPage({ spaceId: reference, body: { title: "Endpoints" } });
  const site = (
    await w.client.createSite({
      organizationId: w.org,
      body: { title: "Handbook", spaces: [docs, reference] },
    })
  ).id;
  /** The site's path parameters, for its typed calls. */
  const params = { organizationId: w.org, siteId: site };
  await w.client.publishSite(params);
  const siteSpaces = (await w.client.listSiteSpaces(params)).items;
  const onSite = (space: string) => siteSpaces.find((item) => item.space.id === space)!;
  /** Anonymous lookups, over HTTP; the owner's go through the typed client. */
  const lookup = (url: string, extra = "") =>
    w.test.request("GET", `/urls/published?url=${encodeURIComponent(url)}${extra}`, { token: null });
  /** An anonymous POST lookup with this body. */
  const post = (body: unknown) => w.test.request("POST", "/urls/published", { token: null, body });
  const root = `http://docsbase.test/sites/${site}/`;
  return {
    ...w,
    docs,
    reference,
    site,
    params,
    lookup,
    post,
    root,
    referencePath: onSite(reference).path,
    docsSiteSpace: onSite(docs).id,
    referenceSiteSpace: onSite(reference).id,
  };
}

describe("getPublishedContentByUrl: URLs", () => {
  it("resolves the site's URL, its site spaces and page paths", async () => {
    const w = await setup();
    const space = await w.client.getSpaceById({ spaceId: w.docs });
    const { status, body } = await w.lookup(w.root);
    expect(status).toBe(200);
    expect(body).toEqual({
      site: w.site,
      siteSpace: w.docsSiteSpace,
      space: w.docs,
      revision: space.revision,
      pathname: "",
      basePath: `/sites/${w.site}/`,
      siteBasePath: `/sites/${w.site}/`,
      apiToken: expect.stringMatching(/^eyJ/),
      organization: w.org,
      complete: false,
      canonicalUrl: w.root,
    });
    const page = (await w.lookup(`${w.root}intro/install`)).body;
    expect(page).toMatchObject({ space: w.docs, pathname: "intro/install", complete: true });
    expect(page.canonicalUrl).toBe(`${w.root}intro/install`);
    const other = (await w.lookup(`${w.root}${w.referencePath}/endpoints`)).body;
    expect(other).toMatchObject({
      siteSpace: w.referenceSiteSpace,
      space: w.reference,
      pathname: "endpoints",
      basePath: `/sites/${w.site}/${w.referencePath}/`,
      complete: true,
      canonicalUrl: `${w.root}${w.referencePath}/endpoints`,
    });
    // Trailing slashes, a query and a fragment change nothing.
    expect((await w.lookup(`${w.root}intro/?x=1#top`)).body.pathname).toBe("intro");
  });

  it("resolves any path inside a site, pages or not, leaving the rest to the renderer", async () => {
    const w = await setup();
    for (const rest of [
      "llms.txt",
      "llms-full.txt",
      "intro.md",
      "sitemap.xml",
      "robots.txt",
      "nope",
      "intro/nope",
    ]) {
      const url = `${w.root}${rest}`;
      for (const answer of [await w.lookup(url), await w.post({ url })]) {
        expect([rest, answer.status]).toEqual([rest, 200]);
        expect(answer.body).toMatchObject({
          site: w.site,
          space: w.docs,
          pathname: rest,
          basePath: `/sites/${w.site}/`,
          complete: true,
          canonicalUrl: url,
        });
      }
    }
    // Inside a named site space, the rest follows its path.
    const inReference = (await w.post({ url: `${w.root}${w.referencePath}/sitemap.xml` })).body;
    expect(inReference).toMatchObject({
      space: w.reference,
      pathname: "sitemap.xml",
      basePath: `/sites/${w.site}/${w.referencePath}/`,
    });
  });

  it("answers 404 for unknown sites and hosts, and 400 for a malformed URL", async () => {
    const w = await setup();
    for (const url of [
      "http://docsbase.test/sites/unknown/",
      "http://docsbase.test/sites/unknown/llms.txt",
      "https://docs.unknown.example/",
      "https://docs.unknown.example/robots.txt",
      "http://docsbase.test/other",
    ]) {
      expect([url, (await w.lookup(url)).status]).toEqual([url, 404]);
      expect([url, (await w.post({ url })).status]).toEqual([url, 404]);
    }
    const malformed = await w.lookup("not a url");
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.message).toMatch(/^query\.url: /);
    expect((await w.lookup("ftp://docsbase.test/sites/x/")).status).toBe(400);
  });

  it("resolves the instance's own URLs over https too, as a renderer asks for every URL", async () => {
    const w = await setup();
    const page = `https://docsbase.test/sites/${w.site}/intro`;
    const { status, body } = await w.lookup(page);
    expect(status).toBe(200);
    expect(body).toMatchObject({ site: w.site, pathname: "intro", siteBasePath: `/sites/${w.site}/` });
    // Canonical at the instance's URL, as handed out.
    expect(body.canonicalUrl).toBe(`${w.root}intro`);
    expect((await w.post({ url: page })).body).toMatchObject({ site: w.site, pathname: "intro" });
    // Another host is no instance URL, whatever its path.
    expect((await w.lookup(`https://elsewhere.test/sites/${w.site}/intro`)).status).toBe(404);
  });

  it("resolves by basename and hostname, canonical on the hostname", async () => {
    const w = await setup();
    await w.client.updateSiteById({
      ...w.params,
      body: { basename: "handbook", hostname: "docs.acme.example" },
    });
    // The operator verifies the claim (docs/sites.md, "Custom hostnames").
    await w.test.request("POST", `/orgs/${w.org}/sites/${w.site}/hostname/approve`);
    const byBasename = (await w.lookup("http://docsbase.test/sites/handbook/intro")).body;
    expect(byBasename).toMatchObject({ site: w.site, siteBasePath: "/sites/handbook/", pathname: "intro" });
    expect(byBasename.canonicalUrl).toBe("https://docs.acme.example/intro");
    const byHost = (await w.lookup("https://docs.acme.example/intro/install")).body;
    expect(byHost).toMatchObject({
      site: w.site,
      siteBasePath: "/",
      basePath: "/",
      pathname: "intro/install",
    });
    // The id still works, and an id wins over another site's basename.
    expect((await w.lookup(`${w.root}intro`)).body.site).toBe(w.site);
    const otherSite = await w.client.createSite({
      organizationId: w.org,
      body: { title: "Other", spaces: [w.docs] },
    });
    const other = { organizationId: w.org, siteId: otherSite.id };
    await w.client.publishSite(other);
    await w.client.updateSiteById({ ...other, body: { basename: w.site } });
    expect((await w.lookup(`${w.root}intro`)).body.site).toBe(w.site);
  });

  it("does not resolve unpublished sites, whoever asks", async () => {
    const w = await setup();
    await w.client.unpublishSite(w.params);
    expect((await w.lookup(w.root)).status).toBe(404);
    await expect(w.client.getPublishedContentByUrl({ url: w.root })).rejects.toMatchObject({
      code: "not_found",
    });
  });

  it("resolves section paths, then site-space paths within the section", async () => {
    const w = await setup();
    const section = (spaceId: string, title: string) =>
      w.client.addSectionToSite({ ...w.params, body: { spaceId, title } });
    const guides = await section(w.docs, "Guides");
    const api = await section(w.reference, "API");
    const apiPath = api.path;
    const first = (await w.lookup(w.root)).body;
    expect(first).toMatchObject({ siteSection: guides.id, space: w.docs, complete: false });
    const named = (await w.lookup(`${w.root}${apiPath}/endpoints`)).body;
    expect(named).toMatchObject({
      siteSection: api.id,
      space: w.reference,
      pathname: "endpoints",
      basePath: `/sites/${w.site}/${apiPath}/`,
      canonicalUrl: `${w.root}${apiPath}/endpoints`,
      complete: true,
    });
    // The Guides section holds both site spaces (the first section took them).
    const inGuides = (await w.lookup(`${w.root}${w.referencePath}/endpoints`)).body;
    expect(inGuides).toMatchObject({ siteSection: guides.id, space: w.reference });
  });
});

describe("getPublishedContentByUrl: share links", () => {
  it("needs an active key of the site in ?share=, and echoes it", async () => {
    const w = await setup();
    await w.client.updateSiteById({ ...w.params, body: { visibility: "share-link" } });
    const shareLink = (name: string, site = w.params) =>
      w.client.createSiteShareLink({ ...site, body: { name } });
    const link = await shareLink("Team");
    const closed = await shareLink("Closed");
    await w.client.updateSiteShareLinkById({ ...w.params, shareLinkId: closed.id, body: { active: false } });
    const gone = await shareLink("Gone");
    await w.client.deleteSiteShareLinkById({ ...w.params, shareLinkId: gone.id });
    const otherSite = await w.client.createSite({
      organizationId: w.org,
      body: { title: "Other", spaces: [w.docs] },
    });
    const other = { organizationId: w.org, siteId: otherSite.id };
    await w.client.updateSiteById({ ...other, body: { visibility: "share-link" } });
    await w.client.publishSite(other);
    const foreign = (await shareLink("Theirs", other)).token;

    const shared = await w.lookup(`${w.root}intro?share=${link.token}`);
    expect(shared.status).toBe(200);
    expect(shared.body).toMatchObject({
      shareKey: link.token,
      pathname: "intro",
      canonicalUrl: `${w.root}intro`,
    });
    for (const key of [closed.token, gone.token, foreign, "unknown"]) {
      expect((await w.lookup(`${w.root}intro?share=${key}`)).status).toBe(404);
    }
    expect((await w.lookup(`${w.root}intro`)).status).toBe(404);
    // A member's token opens nothing more.
    await expect(w.client.getPublishedContentByUrl({ url: `${w.root}intro` })).rejects.toMatchObject({
      code: "not_found",
    });
  });
});

describe("getPublishedContentByUrl: visitor-auth", () => {
  async function visitorSite() {
    const w = await setup();
    await w.client.updateSiteById({ ...w.params, body: { visibility: "visitor-auth" } });
    const key = (await w.client.getSitePublishingAuthById(w.params)).privateKey;
    const now = new Date("2025-01-01T00:00:00.000Z");
    const sign = (claims: Record<string, unknown> = {}, expiresAt = new Date(now.getTime() + 3600_000)) =>
      signVisitorToken(claims, key, { issuedAt: now, expiresAt });
    const withToken = (url: string, token: string, extra = "") =>
      w.lookup(url, `&visitorAuthToken=${encodeURIComponent(token)}${extra}`);
    return { ...w, key, sign, withToken, now };
  }

  it("resolves with a valid token, and refuses expired, foreign-key, alg none and tampered tokens", async () => {
    const w = await visitorSite();
    const valid = await w.sign({ plan: "pro" });
    expect((await w.withToken(`${w.root}intro`, valid)).status).toBe(200);
    expect((await w.lookup(`${w.root}intro`)).status).toBe(404);

    const expired = await w.sign({}, new Date(w.now.getTime() - 3600_000));
    const foreign = await signVisitorToken({ plan: "pro" }, "another-key-of-another-site-0123456789abc");
    const [header, payload, signature] = valid.split(".") as [string, string, string];
    const none = `${base64url.encode(JSON.stringify({ alg: "none", typ: "JWT" }))}.${payload}.`;
    const tampered = `${header}.${base64url.encode(JSON.stringify({ plan: "enterprise" }))}.${signature}`;
    for (const token of [expired, foreign, none, tampered, "garbage"]) {
      expect((await w.withToken(`${w.root}intro`, token)).status).toBe(404);
    }
    // The token expires by the world clock.
    w.advance(3600_000 + 31_000);
    expect((await w.withToken(`${w.root}intro`, valid)).status).toBe(404);
  });

  it("stops accepting tokens of a regenerated key", async () => {
    const w = await visitorSite();
    const valid = await w.sign();
    await w.client.regenerateSitePublishingAuthById(w.params);
    expect((await w.withToken(w.root, valid)).status).toBe(404);
  });

  it("answers the redirect shape with redirectOnError", async () => {
    const w = await visitorSite();
    // The application, not the site's page there: no id of the site or its organization.
    const expected = { target: "application", redirect: "http://docsbase.test/" };
    const missing = await w.lookup(w.root, "&redirectOnError=true");
    expect(missing.status).toBe(200);
    expect(missing.body).toEqual(expected);
    expect(JSON.stringify(missing.body)).not.toContain(w.org);
    expect(JSON.stringify(missing.body)).not.toContain(w.site);
    expect((await w.withToken(w.root, "garbage", "&redirectOnError=true")).body).toEqual(expected);
    // A valid token on a path that is no page resolves: the renderer shows its 404 page.
    const inside = await w.withToken(`${w.root}nope`, await w.sign(), "&redirectOnError=true");
    expect(inside.body).toMatchObject({ site: w.site, pathname: "nope" });
    expect((await w.lookup(w.root, "&redirectOnError=false")).status).toBe(404);
  });

  it("evaluates conditions against the token's claims", async () => {
    const w = await visitorSite();
    const section = (spaceId: string, title: string) =>
      w.client.addSectionToSite({ ...w.params, body: { spaceId, title } });
    const condition = (siteSectionId: string, condition: string) =>
      w.client.updateSiteSectionById({ ...w.params, siteSectionId, body: { condition } });
    const open = await section(w.docs, "Guides");
    const pro = await section(w.reference, "Pro");
    await condition(pro.id, 'visitor.claims.plan == "pro"');
    const proUrl = `${w.root}${pro.path}/endpoints`;
    const proToken = await w.sign({ plan: "pro" });
    const freeToken = await w.sign({ plan: "free" });
    expect((await w.withToken(proUrl, proToken)).body.siteSection).toBe(pro.id);
    // A reader lacking the claim never resolves into the hidden section, even by naming it.
    expect((await w.withToken(proUrl, freeToken)).status).toBe(404);
    expect((await w.withToken(`${w.root}${pro.path}`, freeToken)).status).toBe(404);

    // The default section hidden: the site's URL resolves to the first visible section.
    await condition(open.id, "visitor.claims.staff == true");
    expect((await w.withToken(w.root, proToken)).body).toMatchObject({
      siteSection: pro.id,
      space: w.reference,
      canonicalUrl: `${w.root}${pro.path}/`,
    });
    expect((await w.withToken(w.root, freeToken)).status).toBe(404);
    expect((await w.withToken(w.root, await w.sign({ staff: true }))).body.siteSection).toBe(open.id);
  });

  it("hides site spaces by condition, and reads unsigned claims only from the token's unsigned object", async () => {
    const w = await visitorSite();
    await w.client.updateSiteSpaceById({
      ...w.params,
      siteSpaceId: w.referenceSiteSpace,
      body: { condition: "visitor.claims.unsigned.beta == true" },
    });
    const url = `${w.root}${w.referencePath}/endpoints`;
    expect((await w.withToken(url, await w.sign({ unsigned: { beta: true } }))).body.space).toBe(w.reference);
    for (const claims of [{}, { beta: true }, { unsigned: "beta" }, { unsigned: { beta: false } }]) {
      expect((await w.withToken(url, await w.sign(claims))).status).toBe(404);
    }
    // Query parameters of the URL never become claims.
    expect((await w.withToken(`${url}?visitor.beta=true&unsigned.beta=true`, await w.sign())).status).toBe(
      404,
    );
  });
});

describe("getPublishedContentByUrl: site redirects", () => {
  it("redirects a path that names no page, GET and POST; a page at the path wins; a gone destination is ignored", async () => {
    const w = await setup();
    const intro = await w.client.getPageByPath({ spaceId: w.docs, pagePath: "intro" });
    const redirect = (
      source: string,
      destination: Parameters<typeof w.client.createSiteRedirect>[0]["body"]["destination"],
    ) => w.client.createSiteRedirect({ ...w.params, body: { source, destination } });
    await redirect("/old/intro", { kind: "site-page", siteSpaceId: w.docsSiteSpace, pageId: intro.id });
    const { target } = await w.client.getSiteRedirectBySource({ ...w.params, source: "/old/intro" });
    expect(target).toBe(`${w.root}intro`);
    for (const url of [`${w.root}old/intro`, `${w.root}old/intro/`]) {
      expect((await w.lookup(url)).body).toEqual({ target: "content", redirect: target });
      expect((await w.post({ url })).body).toEqual({ target: "content", redirect: target });
    }
    // The typed client reads the same union.
    expect(await w.client.getPublishedContentByUrl({ url: `${w.root}old/intro` })).toEqual({
      target: "content",
      redirect: target,
    });

    // A page at the path wins over a redirect from it.
    await redirect("/intro", { kind: "site-space", siteSpaceId: w.referenceSiteSpace });
    expect((await w.lookup(`${w.root}intro`)).body).toMatchObject({ space: w.docs, pathname: "intro" });

    // A redirect whose destination is gone: the URL resolves as if there were none.
    const gone = await w.client.createPage({ spaceId: w.docs, body: { title: "Gone" } });
    await redirect("/was-here", { kind: "site-page", siteSpaceId: w.docsSiteSpace, pageId: gone.id });
    expect((await w.lookup(`${w.root}was-here`)).body).toMatchObject({ target: "content" });
    await w.client.deletePage({ spaceId: w.docs, pageId: gone.id });
    expect((await w.lookup(`${w.root}was-here`)).body).toMatchObject({
      space: w.docs,
      pathname: "was-here",
      apiToken: expect.any(String),
    });
    // Paths that match no redirect resolve as before.
    expect((await w.lookup(`${w.root}old`)).body).toMatchObject({ pathname: "old" });
  });

  it("keeps the share key a reader came with in the target, and redirects no one who may not read the site", async () => {
    const w = await setup();
    await w.client.createSiteRedirect({
      ...w.params,
      body: { source: "/start", destination: { kind: "site-space", siteSpaceId: w.referenceSiteSpace } },
    });
    await w.client.updateSiteById({ ...w.params, body: { visibility: "share-link" } });
    const { token: key } = await w.client.createSiteShareLink({ ...w.params, body: { name: "Team" } });
    expect((await w.lookup(`${w.root}start`)).status).toBe(404);
    expect((await w.lookup(`${w.root}start?share=${key!}`)).body).toEqual({
      target: "content",
      redirect: `${w.root}${w.referencePath}/?share=${key!}`,
    });
  });
});

describe("getPublishedContentByUrl: the apiToken reads the published site", () => {
  it("as the visitor whose lookup issued it: the structure filtered with the token's claims", async () => {
    const w = await setup();
    await w.client.updateSiteById({ ...w.params, body: { visibility: "visitor-auth" } });
    const key = (await w.client.getSitePublishingAuthById(w.params)).privateKey;
    await w.client.updateSiteSpaceById({
      ...w.params,
      siteSpaceId: w.referenceSiteSpace,
      body: { condition: 'visitor.claims.plan == "pro"' },
    });
    const expiresAt = new Date(w.test.clock.now().getTime() + 3600_000);
    const read = async (claims: Record<string, unknown>) => {
      const visitorToken = await signVisitorToken(claims, key, { expiresAt });
      const lookup = await w.lookup(w.root, `&visitorAuthToken=${encodeURIComponent(visitorToken)}`);
      const apiToken = lookup.body.apiToken as string;
      const published = await w.test.as(apiToken).getPublishedContentSite(w.params);
      return { claims: decodeJwt(apiToken)["claims"], structure: JSON.stringify(published.structure) };
    };
    const pro = await read({ plan: "pro" });
    expect(pro.claims).toEqual({ plan: "pro" });
    expect(pro.structure).toContain(w.referenceSiteSpace);
    const free = await read({ plan: "free" });
    expect(free.claims).toEqual({ plan: "free" });
    expect(free.structure).toContain(w.docsSiteSpace);
    expect(free.structure).not.toContain(w.referenceSiteSpace);
    // Without a token the visitor-auth site stays out of reach.
    const anonymous = await w.test.request("GET", `/orgs/${w.org}/sites/${w.site}/published`, {
      token: null,
    });
    expect(anonymous.status).toBe(404);
  });
});

describe("resolvePublishedContentByUrl", () => {
  it("answers what the GET answers, anonymously, whatever token the caller holds", async () => {
    const w = await setup();
    for (const url of [w.root, `${w.root}intro/install`, `${w.root}${w.referencePath}/endpoints`]) {
      const got = await w.lookup(url);
      const posted = await w.post({ url });
      expect(posted.status).toBe(200);
      // The same address, site, space and revision: the same reader token too.
      expect(posted.body).toEqual(got.body);
    }
    // A member's token opens nothing more: an unpublished site is 404 for its owner too.
    await w.client.unpublishSite(w.params);
    expect((await w.post({ url: w.root })).status).toBe(404);
    expect((await w.api("POST", "/urls/published", { url: w.root })).status).toBe(404);
    await expect(w.client.resolvePublishedContentByUrl({ body: { url: w.root } })).rejects.toMatchObject({
      code: "not_found",
    });
  });

  it("needs an active key of a share-link site in the URL, as the GET does", async () => {
    const w = await setup();
    await w.client.updateSiteById({ ...w.params, body: { visibility: "share-link" } });
    const link = await w.client.createSiteShareLink({ ...w.params, body: { name: "Team" } });
    expect((await w.post({ url: `${w.root}llms.txt?share=${link.token}` })).body).toMatchObject({
      shareKey: link.token,
      pathname: "llms.txt",
    });
    for (const url of [`${w.root}llms.txt`, `${w.root}llms.txt?share=unknown`]) {
      expect((await w.post({ url })).status).toBe(404);
      // Unsigned claims open nothing.
      expect((await w.post({ url, visitor: { unsignedClaims: { share: link.token } } })).status).toBe(404);
    }
  });

  it("answers 400 naming the field of a bad body, and stores nothing", async () => {
    const w = await setup();
    const cases: [unknown, RegExp][] = [
      [{}, /^body\.url: /],
      [{ url: 42 }, /^body\.url: /],
      [{ url: "" }, /^body\.url: /],
      [{ url: "not a url" }, /^body\.url: expected an absolute URL/],
      [{ url: "ftp://docsbase.test/sites/x/" }, /^body\.url: expected an http or https URL/],
      [{ url: `${w.root}${"a".repeat(2048)}` }, /^body\.url: /],
      [{ url: w.root, redirectOnError: "yes" }, /^body\.redirectOnError: /],
      [{ url: w.root, visitor: "token" }, /^body\.visitor: /],
      [{ url: w.root, visitor: { jwtToken: 1 } }, /^body\.visitor\.jwtToken: /],
      [{ url: w.root, visitor: { jwtToken: "x".repeat(8193) } }, /^body\.visitor\.jwtToken: /],
      [{ url: w.root, visitor: { unsignedClaims: ["beta"] } }, /^body\.visitor\.unsignedClaims: /],
      [{ url: w.root, visitor: { unsignedClaims: "beta" } }, /^body\.visitor\.unsignedClaims: /],
    ];
    for (const [body, message] of cases) {
      const answer = await w.post(body);
      expect([body, answer.status]).toEqual([body, 400]);
      expect(answer.body.error.message).toMatch(message);
    }
    // The first lookup that answers creates the key of site tokens; no bad one got that far.
    const signingKey = () => w.storage.read(siteTokenKey);
    expect(await signingKey()).toBeUndefined();
    expect((await w.post({ url: w.root })).status).toBe(200);
    expect(await signingKey()).toBeDefined();
  });

  it("feeds unsigned claims to conditions, under visitor.claims.unsigned only", async () => {
    const w = await setup();
    await w.client.updateSiteSpaceById({
      ...w.params,
      siteSpaceId: w.referenceSiteSpace,
      body: { condition: "visitor.claims.unsigned.beta == true" },
    });
    const url = `${w.root}${w.referencePath}/endpoints`;
    const beta = await w.post({ url, visitor: { unsignedClaims: { beta: true } } });
    expect(beta.body).toMatchObject({ space: w.reference, pathname: "endpoints" });
    for (const visitor of [undefined, {}, { unsignedClaims: {} }, { unsignedClaims: { beta: false } }]) {
      expect((await w.post({ url, visitor })).status).toBe(404);
    }
    // The GET has no unsigned claims: the site space stays hidden, and the URL's query sets none.
    expect((await w.lookup(`${url}?visitor.beta=true`)).status).toBe(404);
    // A public site reads no visitor token: its claims, signed or not, are ignored.
    const key = (await w.client.getSitePublishingAuthById(w.params)).privateKey;
    const jwtToken = await signVisitorToken({ unsigned: { beta: true } }, key);
    expect((await w.post({ url, visitor: { jwtToken } })).status).toBe(404);
    expect((await w.post({ url, visitor: { jwtToken: "garbage" } })).status).toBe(404);
    expect((await w.post({ url: w.root, visitor: { jwtToken: "garbage" } })).status).toBe(200);
  });

  it("verifies jwtToken on visitor-auth sites; unsigned claims never stand for signed ones", async () => {
    const w = await setup();
    await w.client.updateSiteById({ ...w.params, body: { visibility: "visitor-auth" } });
    const key = (await w.client.getSitePublishingAuthById(w.params)).privateKey;
    const sign = (claims: Record<string, unknown> = {}) =>
      signVisitorToken(claims, key, { expiresAt: new Date("2025-01-01T01:00:00.000Z") });
    const url = `${w.root}intro`;
    const withToken = await w.post({ url, visitor: { jwtToken: await sign() } });
    expect(withToken.body).toMatchObject({ site: w.site, pathname: "intro" });
    expect(withToken.body).toEqual((await w.lookup(url, `&visitorAuthToken=${await sign()}`)).body);
    // Without a valid token: 404, unsigned claims or not, or the redirect on request.
    for (const visitor of [undefined, { jwtToken: "garbage" }, { unsignedClaims: { plan: "pro" } }]) {
      expect((await w.post({ url, visitor })).status).toBe(404);
      expect((await w.post({ url, visitor, redirectOnError: true })).body).toEqual({
        target: "application",
        redirect: "http://docsbase.test/",
      });
    }

    await w.client.updateSiteSpaceById({
      ...w.params,
      siteSpaceId: w.referenceSiteSpace,
      body: { condition: 'visitor.claims.plan == "pro" && visitor.claims.unsigned.beta == true' },
    });
    const endpoints = `${w.root}${w.referencePath}/endpoints`;
    const resolves = async (claims: Record<string, unknown>, unsignedClaims?: Record<string, unknown>) =>
      (await w.post({ url: endpoints, visitor: { jwtToken: await sign(claims), unsignedClaims } })).status;
    expect(await resolves({ plan: "pro" }, { beta: true })).toBe(200);
    expect(await resolves({ plan: "pro", unsigned: { beta: true } })).toBe(200);
    expect(await resolves({}, { beta: true, plan: "pro" })).toBe(404);
    // On a name both carry, the token's own (signed) unsigned claim wins.
    expect(await resolves({ plan: "pro", unsigned: { beta: false } }, { beta: true })).toBe(404);
  });
});
