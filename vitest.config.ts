import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // One PostgreSQL server for the run (test/support/postgres-setup.ts).
    globalSetup: ["test/support/postgres-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
