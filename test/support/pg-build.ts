import { bundleScript, type BuiltScript } from "./serve-process.js";

/**
 * Bundles test/support/pg-instance.ts as `buildCli()` bundles the CLI, so that a test starts it in
 * a few seconds rather than through tsx's loader. It sits in a file of its own because
 * pg-instance.ts starts a server as soon as it is loaded. Its `script` is the `entry` of a
 * `ServeProcesses`.
 */
export function buildInstance(): Promise<BuiltScript> {
  return bundleScript("test/support/pg-instance.ts", "pg-instance");
}
