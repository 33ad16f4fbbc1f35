import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext } from "playwright-core";

/**
 * Debian's Chromium through playwright-core, for every browser test (.ci/run installs it; no
 * downloaded browser). Outside CI, a machine without it skips those tests.
 */
export const CHROMIUM = "/usr/bin/chromium";
export const chromiumMissing = !existsSync(CHROMIUM) && !process.env["CI"];

/** A fresh profile directory, to remove when the test is done. */
export function profileDirectory(): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), "docsbase-chromium-"));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** Headless Chromium on the persistent profile at `profile` (IndexedDB and service workers survive a relaunch). */
export function launch(profile: string): Promise<BrowserContext> {
  return chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}
