import { inject } from "vitest";
import { createDatabase } from "./postgres-server.js";
import "./postgres-setup.js";

/** The URL of the run's PostgreSQL server (its `postgres` database); throws why it is missing. */
export function postgresUrl(): string {
  const provided = inject("postgres");
  if ("error" in provided) throw new Error(`PostgreSQL could not be started: ${provided.error}`);
  return provided.url;
}

/** A new empty database on the run's server, and its URL. */
export function freshDatabase(prefix?: string, options?: { icu?: boolean }): Promise<string> {
  return createDatabase(postgresUrl(), prefix, options);
}
