import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

/**
 * The `docsbase` command's options described once: what it parses, and what `--help` prints
 * (every option with its environment variable and default).
 */

export interface CliOption {
  readonly name: string;
  readonly type: "string" | "boolean";
  readonly short?: string;
  /** The value's placeholder in the help (`PORT`); string options only. */
  readonly value?: string;
  /** The environment variable read when the option is not given. */
  readonly env?: string;
  /** The default, as the help shows it. */
  readonly default?: string;
  readonly text: string;
  /** Parsed but not shown: an option accepted only to be refused with a reason. */
  readonly hidden?: boolean;
}

export interface CommandSpec {
  /** As typed after `docsbase`: `serve`, `tokens create`. */
  readonly name: string;
  /** Usage lines after `docsbase <name> `. */
  readonly usage: readonly string[];
  readonly summary: string;
  /** Paragraphs after the options. */
  readonly notes?: string;
  readonly options: readonly CliOption[];
}

/** Where the command's output goes; tests pass their own. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

export const HELP_OPTION: CliOption = {
  name: "help",
  short: "h",
  type: "boolean",
  text: "Show this help and exit.",
};

/** Columns the help is wrapped to. */
const WIDTH = 100;

/** `docsbase <command> --help`. */
export function commandHelp(spec: CommandSpec): string {
  // A usage line starting with a space continues the one before it.
  const usage = spec.usage.map((line, index) =>
    line.startsWith(" ")
      ? `${" ".repeat(`Usage: docsbase ${spec.name}`.length)}${line}`
      : `${index === 0 ? "Usage: " : "       "}docsbase ${spec.name} ${line}`,
  );
  const shown = [...spec.options, HELP_OPTION].filter((option) => !option.hidden);
  const heads = shown.map(
    (option) =>
      `${option.short ? `-${option.short}, ` : ""}--${option.name}${option.value ? ` ${option.value}` : ""}`,
  );
  const width = Math.max(...heads.map((head) => head.length)) + 4;
  const lines = shown.flatMap((option, index) => {
    const extra = [
      option.env ? `env ${option.env}` : "",
      option.default !== undefined ? `default ${option.default}` : "",
    ].filter(Boolean);
    // Where the value comes from otherwise goes on a line of its own, never broken.
    const parts = [...wrap(option.text, WIDTH - width), ...(extra.length ? [extra.join("; ")] : [])];
    return parts.map(
      (part, line) => `${line === 0 ? `  ${heads[index]!}`.padEnd(width) : " ".repeat(width)}${part}`,
    );
  });
  return [...usage, "", spec.summary, "", "Options:", ...lines, ...(spec.notes ? ["", spec.notes] : [])].join(
    "\n",
  );
}

/** `text` in lines of at most `width` characters, broken at spaces. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line];
}

/** The first sentence of a command's summary, for lists of commands. */
export function shortSummary(spec: CommandSpec): string {
  return spec.summary.replace(/\s+/g, " ").split(/(?<=\.) /)[0]!;
}

export type OptionValues = Record<string, string | boolean | undefined>;

/**
 * The options of `args` for `spec`, or the message naming what is wrong (an unknown option, a
 * missing value, a stray argument) with a pointer to `--help`.
 */
export function parseOptions(spec: CommandSpec, args: readonly string[]): OptionValues | string {
  const options: Record<string, { type: "string" | "boolean"; short?: string }> = {};
  for (const option of [...spec.options, HELP_OPTION]) {
    options[option.name] = { type: option.type, ...(option.short ? { short: option.short } : {}) };
  }
  try {
    return parseArgs({ args: [...args], options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    return `${(error as Error).message}\nTry 'docsbase ${spec.name} --help'.`;
  }
}

/** A string option's value: the flag, else its environment variable (empty counts as unset). */
export function stringOption(
  values: OptionValues,
  option: CliOption,
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  const given = values[option.name];
  if (typeof given === "string") return given;
  return (option.env ? env[option.env] : undefined) || undefined;
}

/** The version in the package's package.json, found by walking up from this module. */
export function packageVersion(): string {
  let directory = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(directory, "package.json");
    if (existsSync(candidate)) {
      const manifest = JSON.parse(readFileSync(candidate, "utf8")) as { name?: string; version?: string };
      if (manifest.name === "docsbase" && manifest.version) return manifest.version;
    }
    const parent = dirname(directory);
    if (parent === directory) return "unknown";
    directory = parent;
  }
}

/** Where `serve` and the users and tokens commands find their SQLite file when told nothing else. */
export const DEFAULT_DB = "./docsbase.sqlite";

/** The refusal of a `--postgres` value that is not a PostgreSQL URL, else undefined. */
export function postgresUrlError(url: string): string | undefined {
  return /^postgres(ql)?:\/\//.test(url)
    ? undefined
    : "--postgres must be a postgres:// or postgresql:// URL";
}
