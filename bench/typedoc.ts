/**
 * What `npm run docs:check` (TypeDoc over every entry point, no output, failing on a warning) adds
 * to `npm test` (issue 27, item 7), against a step `npm test` already has: type-checking the same
 * sources (`tsc -p tsconfig.json --noEmit`). Each runs once, one after the other, in this run.
 * `npm run bench -- typedoc`; figures in docs/performance.md, "API reference in npm test (issue 27)".
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { loadAverage } from "./load.js";
import { dirname, join } from "node:path";

const root = join(import.meta.dirname, "..");

/**
 * Runs a command of node_modules/.bin under GNU time: its wall time and its CPU time (user and
 * system, all its threads), in seconds. CPU time moves less than wall time on a shared machine.
 */
function measure(command: string, args: readonly string[]) {
  const output = join(mkdtempSync(join(tmpdir(), "docsbase-bench-typedoc-")), "time");
  const binary = join(root, "node_modules", ".bin", command);
  const result = spawnSync("/usr/bin/time", ["-f", "%e %U %S", "-o", output, binary, ...args], {
    cwd: root,
    stdio: "ignore",
  });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} exited with ${result.status}`);
  const [wall, user, system] = readFileSync(output, "utf8").trim().split(" ").map(Number) as [
    number,
    number,
    number,
  ];
  rmSync(dirname(output), { recursive: true, force: true });
  return { wall, cpu: user + system };
}

export function benchTypedoc() {
  console.log(`load average before: ${loadAverage()}`);
  const typecheck = measure("tsc", ["-p", "tsconfig.json", "--noEmit"]);
  const line = (label: string, { wall, cpu }: { wall: number; cpu: number }) =>
    console.log(
      `${label.padEnd(44)} ${wall.toFixed(1).padStart(6)} s wall ${cpu.toFixed(1).padStart(6)} s CPU`,
    );
  line("tsc -p tsconfig.json --noEmit (baseline)", typecheck);
  const docs = measure("typedoc", ["--emit", "none"]);
  line("typedoc --emit none (npm run docs:check)", docs);
  console.log(`docs:check / typecheck: ${(docs.cpu / typecheck.cpu).toFixed(2)} in CPU time`);
  console.log(`load average after: ${loadAverage()}`);
}
