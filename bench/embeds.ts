/**
 * `getEmbedByUrlInSpace` (issue 23, item 8): what an embed costs. Pages served by a local HTTP
 * server on 127.0.0.1 (the test double with `allowPrivateNetwork`), read through the operation:
 * a typical page (a 4 KiB head), a 1 MiB page whose head is padded past the 256 KiB that are
 * scanned, and 256 KiB of unclosed `<meta` tags (the scanner's worst case); against the access
 * check alone (`getSpaceById` on the same space: the baseline) and a link-only embed (an address
 * the guard refuses: no fetch). Also the scan alone (`readPageMetadata`) on the same HTML.
 * `npm run bench -- embeds`; figures in docs/performance.md.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { loadAverage } from "./load.js";
import { MAX_SCANNED_CHARACTERS, readPageMetadata } from "../src/core/embeds/html-metadata.js";
import { createTestDocsbase } from "../src/testing/double.js";

const CALLS = 200;

const TYPICAL = `<!doctype html><html><head><title>Guide</title>
${'<meta name="x" content="y">\n'.repeat(140)}<meta property="og:site_name" content="Docs">
<link rel="icon" href="/icon.png"></head><body>${"<p>text</p>".repeat(2000)}</body></html>`;
const PADDED = `<html><head><!--${"x".repeat(1024 * 1024)}--><title>Far</title></head></html>`;
const UNCLOSED = "<meta content=x ".repeat(MAX_SCANNED_CHARACTERS / 16);
const PAGES: Record<string, string> = { "/typical": TYPICAL, "/padded": PADDED, "/unclosed": UNCLOSED };

async function measure(label: string, call: () => Promise<unknown>, calls = CALLS): Promise<void> {
  await call();
  const start = performance.now();
  for (let index = 0; index < calls; index++) await call();
  const each = (performance.now() - start) / calls;
  console.log(`${`${label}:`.padEnd(56)} ${each.toFixed(3)} ms per call`);
}

export async function benchEmbeds(): Promise<void> {
  console.log(`load average at start: ${loadAverage()}`);
  const server = createServer((request, response) => {
    const page = PAGES[request.url ?? ""];
    if (page === undefined) return response.writeHead(404).end();
    response.writeHead(200, { "content-type": "text/html" }).end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const test = await createTestDocsbase({ allowPrivateNetwork: true });
  const guarded = await createTestDocsbase();
  const spaceOf = async (double: typeof test) => {
    const owner = double.as(await double.createUser("Owner"));
    const org = await owner.createOrganization({ body: { title: "Acme" } });
    return {
      owner,
      spaceId: (await owner.createSpace({ organizationId: org.id, body: { title: "Docs" } })).id,
    };
  };
  const { owner, spaceId } = await spaceOf(test);
  const refused = await spaceOf(guarded);

  await measure("access check alone, getSpaceById (baseline)", () => owner.getSpaceById({ spaceId }));
  await measure("link-only embed, address refused (no fetch)", () =>
    refused.owner.getEmbedByUrlInSpace({ spaceId: refused.spaceId, url: `${origin}/typical` }),
  );
  for (const path of Object.keys(PAGES)) {
    const bytes = PAGES[path]!.length;
    await measure(`embed of ${path} (${Math.round(bytes / 1024)} KiB)`, () =>
      owner.getEmbedByUrlInSpace({ spaceId, url: `${origin}${path}` }),
    );
  }
  for (const path of Object.keys(PAGES)) {
    await measure(`scan alone, readPageMetadata of ${path}`, async () =>
      readPageMetadata(PAGES[path]!, `${origin}${path}`),
    );
  }
  await test.docsbase.close();
  await guarded.docsbase.close();
  await new Promise((resolve) => server.close(resolve));
  console.log(`load average at end: ${loadAverage()}`);
}
