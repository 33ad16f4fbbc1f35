import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { postgresStorage } from "../../src/adapters/postgres/index.js";
import { createTestDocsbase } from "../../src/testing/double.js";
import { freshDatabase, postgresUrl } from "../support/postgres.js";

/**
 * A database that goes away answers 503 (with Retry-After and the standard error body), is
 * reported to `onError`, and serves again once it is back: no restart of docsbase needed.
 */
describe("postgres outage", () => {
  const admin = new pg.Client({ connectionString: postgresUrl() });
  afterAll(() => admin.end());

  it("answers 503 while the database refuses connections, and recovers", async () => {
    const url = await freshDatabase("outage");
    const name = new URL(url).pathname.slice(1);
    const reported: unknown[] = [];
    const test = await createTestDocsbase({
      storage: postgresStorage({ connectionString: url, poolSize: 2 }),
      onError: (error) => reported.push(error),
    });
    const whoami = () =>
      test.fetch(`${test.endpoint}/v1/user`, { headers: { authorization: `Bearer ${test.operatorToken}` } });
    expect((await whoami()).status).toBe(200);

    await admin.connect();
    await admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS false`);
    await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1`, [name]);
    const refused = await whoami();
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(await refused.json()).toMatchObject({
      error: { code: 503, message: expect.stringMatching(/database/) },
    });
    expect(reported.length).toBeGreaterThan(0);

    await admin.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS true`);
    expect((await whoami()).status).toBe(200);
    await test.docsbase.close();
  });
});
