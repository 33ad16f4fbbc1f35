#!/usr/bin/env node
import { isDocsbaseError } from "../core/shared/errors.js";
import { FixtureError } from "../testing/fixture.js";
import { runCli } from "./commands.js";

runCli(process.argv.slice(2)).then(
  (code) => {
    if (code !== 0) process.exit(code);
  },
  (error: unknown) => {
    // A failure docsbase explains (the database cannot be reached) needs no stack trace.
    const explained = isDocsbaseError(error) || error instanceof FixtureError;
    console.error("docsbase:", explained ? error.message : error);
    process.exit(1);
  },
);
