import { inject, type ProvidedContext } from "vitest";
import { createDatabase } from "./postgres-server.js";
import "./postgres-setup.js";

/** The URL of the run's PostgreSQL server (its `postgres` database); throws why it is missing. */
export function postgresUrl(): string {
  // Only the `postgres` project of vitest.config.ts starts the server and provides this.
  const provided: ProvidedContext["postgres"] | undefined = inject("postgres");
  if (!provided)
    throw new Error("No PostgreSQL server in this run: the file belongs in the postgres project");
  if ("error" in provided) throw new Error(`PostgreSQL could not be started: ${provided.error}`);
  return provided.url;
}

/** A new empty database on the run's server, and its URL. */
export function freshDatabase(prefix?: string, options?: { icu?: boolean }): Promise<string> {
  return createDatabase(postgresUrl(), prefix, options);
}
