import type { TestProject } from "vitest/node";
import { startPostgres, type PostgresServer } from "./postgres-server.js";

/**
 * vitest global setup: one PostgreSQL server for the whole run, shared by every test file (each
 * test takes its own database with `createDatabase`). When the server cannot start, the run goes
 * on and every PostgreSQL test fails with the reason (see `postgresUrl` in `postgres.ts`); none is
 * skipped.
 */
let server: PostgresServer | undefined;

export async function setup(project: TestProject): Promise<void> {
  try {
    server = await startPostgres();
    project.provide("postgres", { url: server.url });
  } catch (error) {
    project.provide("postgres", { error: (error as Error).message });
  }
}

export async function teardown(): Promise<void> {
  await server?.stop();
}

declare module "vitest" {
  export interface ProvidedContext {
    postgres: { url: string } | { error: string };
  }
}
