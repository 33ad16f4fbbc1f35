#!/usr/bin/env node
/* global URL, console, process */
import { existsSync } from "node:fs";

// A checkout has no dist/ until `npm run build`: say so rather than fail on the import.
const main = new URL("../dist/cli/main.js", import.meta.url);
if (!existsSync(main)) {
  console.error(
    "docsbase: dist/cli/main.js is missing (this checkout is not built): run `npm run build` first, " +
      "or `npm start` to serve from the sources",
  );
  process.exit(1);
}
await import(main.href);
