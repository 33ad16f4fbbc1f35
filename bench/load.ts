import { loadavg } from "node:os";

/** The machine's load averages over 1, 5 and 15 minutes, as benchmarks print them beside figures. */
export const loadAverage = (): string =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(" ");
