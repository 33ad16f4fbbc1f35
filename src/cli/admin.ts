import { existsSync } from "node:fs";
import { postgresStorage } from "../adapters/postgres/index.js";
import { sqliteStorage } from "../adapters/sqlite/index.js";
import type { Storage } from "../core/storage/port.js";
import { isDocsbaseError } from "../core/shared/errors.js";
import { createDocsbase, type Docsbase } from "../docsbase.js";
import {
  type CliIo,
  type CliOption,
  type CommandSpec,
  DEFAULT_DB,
  type OptionValues,
  postgresUrlError,
  stringOption,
} from "./help.js";

/**
 * `docsbase users create` and `docsbase tokens create|list|revoke`: the operator's user and token
 * operations, called in process on the database `serve` uses, with the same validation and errors
 * as over HTTP. They print the operation's answer as JSON.
 */

const DB: CliOption = {
  name: "db",
  type: "string",
  value: "FILE",
  default: DEFAULT_DB,
  text: "SQLite file of the server (it must exist: `docsbase serve` creates it).",
};
const POSTGRES: CliOption = {
  name: "postgres",
  type: "string",
  value: "URL",
  env: "DOCSBASE_DATABASE_URL",
  text: "The server's PostgreSQL database instead (postgres:// or postgresql://).",
};
/** Accepted only to be refused: an in-memory database would end with the command. */
const MEMORY: CliOption = { name: "memory", type: "boolean", text: "", hidden: true };
const BASE_URL: CliOption = {
  name: "base-url",
  type: "string",
  value: "URL",
  env: "DOCSBASE_BASE_URL",
  default: "http://127.0.0.1:8787",
  text: "The server's public base URL, for the URLs printed.",
};
const STORAGE = [DB, POSTGRES, MEMORY, BASE_URL];
const USER: CliOption = { name: "user", type: "string", value: "USER-ID", text: "The user's id (required)." };
const STORAGE_NOTE =
  "Works on the database `docsbase serve` uses, also while it runs (SQLite in WAL mode, or\n" +
  "PostgreSQL), as the operator: no token needed, only access to the database.";

export const USERS_CREATE: CommandSpec = {
  name: "users create",
  usage: ["--display-name NAME --email EMAIL [--photo-url URL] [--db FILE | --postgres URL]"],
  summary: "Create a user (the API's createUser) and print it as JSON.",
  options: [
    { name: "display-name", type: "string", value: "NAME", text: "The user's name (required)." },
    { name: "email", type: "string", value: "EMAIL", text: "The user's email, unique (required)." },
    { name: "photo-url", type: "string", value: "URL", text: "An http(s) URL of the user's photo." },
    ...STORAGE,
  ],
  notes: STORAGE_NOTE,
};

export const TOKENS_CREATE: CommandSpec = {
  name: "tokens create",
  usage: [
    "--user USER-ID [--label LABEL] [--expires-in SECONDS | --expires-at DATE] [--db FILE | --postgres URL]",
  ],
  summary: "Create an API token for a user (createUserToken); the token is shown once.",
  options: [
    USER,
    { name: "label", type: "string", value: "LABEL", text: "A label, shown by tokens list." },
    { name: "expires-in", type: "string", value: "SECONDS", text: "Lifetime from now, in seconds." },
    {
      name: "expires-at",
      type: "string",
      value: "DATE",
      text: "Expiry, an ISO 8601 date-time with a time zone.",
    },
    ...STORAGE,
  ],
  notes: `${STORAGE_NOTE}\nWithout --expires-in or --expires-at the token does not expire.`,
};

export const TOKENS_LIST: CommandSpec = {
  name: "tokens list",
  usage: ["--user USER-ID [--db FILE | --postgres URL]"],
  summary: "List a user's API tokens (listUserTokens), never the tokens themselves.",
  options: [USER, ...STORAGE],
  notes: STORAGE_NOTE,
};

export const TOKENS_REVOKE: CommandSpec = {
  name: "tokens revoke",
  usage: ["--user USER-ID --token-id TOKEN-ID [--db FILE | --postgres URL]"],
  summary: "Revoke one of a user's API tokens (deleteUserToken).",
  options: [
    USER,
    { name: "token-id", type: "string", value: "TOKEN-ID", text: "The token's id (required)." },
    ...STORAGE,
  ],
  notes:
    `${STORAGE_NOTE}\nA server running on the same database refuses the token within 5 seconds (the time it` +
    "\nkeeps a token it has seen).",
};

export const ADMIN_COMMANDS: readonly CommandSpec[] = [
  USERS_CREATE,
  TOKENS_CREATE,
  TOKENS_LIST,
  TOKENS_REVOKE,
];

/** Raised for a command line that cannot run; its message is printed as is. */
class UsageError extends Error {}

/** Runs one of {@link ADMIN_COMMANDS}; returns the exit code. */
export async function runAdminCommand(
  spec: CommandSpec,
  values: OptionValues,
  context: { readonly io: CliIo; readonly env: Readonly<Record<string, string | undefined>> },
): Promise<number> {
  const { io, env } = context;
  let docsbase: Docsbase | undefined;
  try {
    const text = (name: string) => (typeof values[name] === "string" ? (values[name] as string) : undefined);
    const required = (name: string) => {
      const value = text(name);
      if (value === undefined || value === "")
        throw new UsageError(`--${name} is required.\nTry 'docsbase ${spec.name} --help'.`);
      return value;
    };
    if (values["memory"])
      throw new UsageError("--memory cannot be used here: an in-memory database would end with the command");
    // Required options are checked before the database is opened.
    const run = commandOf(spec, text, required);
    const baseUrl = stringOption(values, BASE_URL, env) ?? BASE_URL.default!;
    docsbase = createDocsbase({ storage: storageOf(values, env), baseUrl, tokenCache: false });
    // The operator, created with its token (printed once, as `serve` does) on a database without one.
    const { userId, token } = await docsbase.bootstrap();
    if (token) io.err(`Operator token (shown once, keep it safe): ${token}`);
    const answer = await run(docsbase.as({ userId }), io);
    if (answer !== undefined) io.out(JSON.stringify(answer, null, 2));
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(error.message);
      return 1;
    }
    if (!isDocsbaseError(error)) throw error;
    io.err(`docsbase: ${optionNames(error.message)}`);
    return 1;
  } finally {
    await docsbase?.close();
  }
}

type Operator = ReturnType<Docsbase["as"]>;

function commandOf(
  spec: CommandSpec,
  text: (name: string) => string | undefined,
  required: (name: string) => string,
): (operator: Operator, io: CliIo) => Promise<unknown> {
  switch (spec) {
    case USERS_CREATE: {
      const body = {
        displayName: required("display-name"),
        email: required("email"),
        ...(text("photo-url") !== undefined ? { photoURL: text("photo-url")! } : {}),
      };
      return (operator) => operator.createUser({ body });
    }
    case TOKENS_CREATE: {
      const userId = required("user");
      const expiresIn = text("expires-in");
      const seconds = expiresIn === undefined ? undefined : Number(expiresIn);
      if (seconds !== undefined && (expiresIn!.trim() === "" || !Number.isInteger(seconds)))
        throw new UsageError(`--expires-in must be a whole number of seconds, got "${expiresIn}"`);
      const body = {
        ...(text("label") !== undefined ? { label: text("label")! } : {}),
        ...(seconds !== undefined ? { expiresIn: seconds } : {}),
        ...(text("expires-at") !== undefined ? { expiresAt: text("expires-at")! } : {}),
      };
      return async (operator, io) => {
        const created = await operator.createUserToken({ userId, body });
        io.err("The token is shown this once: keep it safe.");
        return created;
      };
    }
    case TOKENS_LIST: {
      const userId = required("user");
      // A user holds at most 100 tokens: one page of 100 is all of them.
      return async (operator) => (await operator.listUserTokens({ userId, limit: 100 })).items;
    }
    default: {
      const userId = required("user");
      const tokenId = required("token-id");
      return async (operator, io) => {
        // The API answers a token already gone as a revocation (idempotent); the CLI says which.
        const held = (await operator.listUserTokens({ userId, limit: 100 })).items;
        await operator.deleteUserToken({ userId, tokenId });
        const what = held.some((token) => token.id === tokenId) ? "revoked" : "not found: nothing to revoke";
        io.err(`Token ${tokenId} of user ${userId} ${what}.`);
        return undefined;
      };
    }
  }
}

/** The storage of `--db` or `--postgres` (or `DOCSBASE_DATABASE_URL`), as `serve` picks it. */
function storageOf(values: OptionValues, env: Readonly<Record<string, string | undefined>>): Storage {
  const postgres = stringOption(values, POSTGRES, env);
  if (postgres !== undefined) {
    const refused = postgresUrlError(postgres);
    if (refused !== undefined) throw new UsageError(refused);
    return postgresStorage({ connectionString: postgres, poolSize: 1 });
  }
  const db = typeof values["db"] === "string" ? values["db"] : DEFAULT_DB;
  if (!existsSync(db))
    throw new UsageError(`--db: no database at ${db} (\`docsbase serve --db ${db}\` creates it)`);
  return sqliteStorage({ filename: db });
}

const OPTION_OF: Record<string, string> = {
  displayName: "--display-name",
  email: "--email",
  photoURL: "--photo-url",
  label: "--label",
  expiresIn: "--expires-in",
  expiresAt: "--expires-at",
  userId: "--user",
  tokenId: "--token-id",
};

/** An operation's message with the fields it names (`body.email`) as the options that set them. */
function optionNames(message: string): string {
  return message.replace(
    /\b(?:body|params|query)\.(\w+)/g,
    (whole, field: string) => OPTION_OF[field] ?? whole,
  );
}
