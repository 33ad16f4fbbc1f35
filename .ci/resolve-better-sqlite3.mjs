// Preloaded by .ci/node-smoke (`--import`): makes this process and its workers load better-sqlite3
// from DOCSBASE_BETTER_SQLITE3, a copy compiled for the running Node, instead of
// node_modules/better-sqlite3, whose native module is compiled for the Node that installed it.
// Both ways in are redirected: ESM `import` (the SQLite adapter's driver) through a resolve hook,
// CommonJS `require.resolve` (the checkpointer's worker) through the CommonJS resolver.
import Module, { registerHooks } from "node:module";
import { join, sep } from "node:path";
import process from "node:process";
import { URL, fileURLToPath, pathToFileURL } from "node:url";

const copy = process.env.DOCSBASE_BETTER_SQLITE3;
if (!copy) throw new Error("DOCSBASE_BETTER_SQLITE3 must name the directory of the rebuilt copy");
const installed = join(fileURLToPath(new URL("..", import.meta.url)), "node_modules", "better-sqlite3") + sep;

/** The copy's file for a file of the installed package, else the file itself. */
const redirect = (file) => (file.startsWith(installed) ? join(copy, file.slice(installed.length)) : file);

registerHooks({
  resolve(specifier, context, nextResolve) {
    const resolved = nextResolve(specifier, context);
    if (!resolved.url.startsWith("file:")) return resolved;
    return { ...resolved, url: pathToFileURL(redirect(fileURLToPath(resolved.url))).href };
  },
});

const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (...args) {
  return redirect(resolveFilename.apply(this, args));
};
