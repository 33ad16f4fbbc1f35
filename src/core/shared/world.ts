import type { CollectionRecord } from "../collections/tables.js";
import type { ConversationAnalyzer } from "../conversations/analyzer.js";
import type { MemberRecord } from "../members/tables.js";
import type { SpaceRecord } from "../spaces/tables.js";
import type { TeamRecord } from "../teams/tables.js";
import type { ResolveTxt } from "../net/resolve-txt.js";
import type { Storage, WriteTransaction } from "../storage/port.js";
import type { Translator } from "../translations/translator.js";

import type { DerivedCache } from "./cache.js";
import type { InvokeObserver } from "./observe.js";

export type { DerivedCache } from "./cache.js";

/**
 * Everything an operation may reach outside its input: injected so that tests are deterministic
 * and so that the core runs unchanged on every runtime.
 */
export interface World {
  readonly storage: Storage;
  /** Current time. Tests move it to exercise retention windows. */
  readonly clock: () => Date;
  /** New opaque identifiers. */
  readonly ids: () => string;
  /** Absolute base of API URLs, without the `/v1` suffix, e.g. `http://127.0.0.1:8787`. */
  readonly baseUrl: string;
  /** Absolute base of the application URLs (`urls.app`). Defaults to `baseUrl`. */
  readonly appUrl: string;
  /**
   * Where a renderer serves published sites, ending with `/` (`http://localhost:3000/url/`): the
   * published URLs handed out are this followed by the site's own URL without its scheme
   * (`http://localhost:3000/url/docs.example.com/guide`). Absent: the site's own URL.
   */
  readonly publishedUrl?: string;
  /**
   * Absolute base of download URLs (file `downloadURL`s, PDF exports), without `/v1`, when they are
   * served from an origin of their own; `baseUrl` when absent.
   */
  readonly downloadBaseUrl?: string;
  /** Per-instance memo of values derived from immutable revisions. */
  readonly cache: DerivedCache;
  /**
   * The only way core reaches the network, so that one guard sees every request. Called from job handlers,
   * never inside a storage transaction.
   */
  readonly fetch: (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
  /**
   * The translation engine of translation runs (docs/translations.md), called from their job only;
   * absent when none is configured, and then creating or running a translation answers 503.
   */
  readonly translator?: Translator;
  /**
   * What turns ingested conversations into issues (docs/conversations.md), called from their
   * analysis job only; absent for the built-in lexical analyzer.
   */
  readonly conversationAnalyzer?: ConversationAnalyzer;
  /**
   * Told by `scheduleJob` that a job was queued (before its transaction commits), so that the
   * host can start a job due now at once instead of at its next poll (see `src/core/jobs`).
   */
  readonly jobQueued?: (runAt: Date) => void;
  /** The lifecycle hooks of every resource module, run as one (see `src/core/module.ts`). */
  readonly lifecycle: Lifecycle;
  /** Told of every operation call, around it (`createDocsbase({ observe })`); absent as a rule. */
  readonly observe?: InvokeObserver;
  /** How a site's hostname claim is verified (docs/sites.md, "Custom hostnames"). */
  readonly hostnames: HostnameVerification;
}

/**
 * Whether a site answers for a hostname only once the claim is verified (`verify`, by a DNS TXT
 * record read through `resolveTxt`, or the operator's approval), or at once (single-tenant use).
 */
export interface HostnameVerification {
  readonly verify: boolean;
  /** `null` where the runtime has none: then only the operator's approval verifies a claim. */
  readonly resolveTxt: ResolveTxt | null;
}

/**
 * Events that cross resources. The resource that causes one runs every module's hook for it in
 * its own write transaction, without knowing which resources care (see `src/core/module.ts`).
 */
export interface Lifecycle {
  /** A deleted space is purged for good: each module removes what belongs to it alone. */
  purgeSpace(tx: WriteTransaction, space: SpaceRecord): Promise<void>;
  /** A member left or was removed from an organization: each module drops what was theirs there. */
  memberRemoved(tx: WriteTransaction, member: MemberRecord): Promise<void>;
  /** A collection is deleted (its spaces are soft-deleted): each module drops what was on it. */
  collectionDeleted(tx: WriteTransaction, collection: CollectionRecord): Promise<void>;
  /** A team is deleted: each module drops what was given to it. */
  teamRemoved(tx: WriteTransaction, team: TeamRecord): Promise<void>;
  /**
   * A space or collection went to another organization (`from` is the one it left; each nested one
   * is reported too): each module drops what named the old organization's members or teams on it.
   */
  contentTransferred(tx: WriteTransaction, content: TransferredContent): Promise<void>;
}

/** A space or collection that changed organization. */
export interface TransferredContent {
  readonly id: string;
  /** The organization it left. */
  readonly from: string;
}

/** Who is calling. `operator` is the bootstrap user allowed to manage users. */
export interface Caller {
  readonly userId: string;
  readonly operator: boolean;
  /**
   * Set for the short-lived `apiToken` of a published-content lookup, which stands for no user:
   * the caller may only read this one space (`invoke` refuses anything else with 403).
   */
  readonly scope?: CallerScope;
  /**
   * Set for an integration token (docs/integrations.md, "Tokens"), which authenticates as the
   * integration of this name and stands for no user: it calls only the operations whose rule
   * opens them to it, for itself (`invoke` refuses anything else with 403).
   */
  readonly integration?: string;
  /**
   * Set for an installation token, which acts for one installation of an integration: a stand-in
   * member of the installation's organization whose role the integration's scopes give.
   */
  readonly installation?: CallerInstallation;
}

/** The installation an installation token acts for. */
export interface CallerInstallation {
  readonly id: string;
  readonly integration: string;
  readonly organization: string;
}

/** What a scoped caller may read: the current content of `space` and its revision `revision`. */
export interface CallerScope {
  readonly space: string;
  readonly revision: string;
  /** The site whose lookup issued the token: its requests also count against the site's limit. */
  readonly site?: string;
  /** The address (its rate-limit key) that obtained the token, which its requests count against. */
  readonly address?: string;
  /** The claims the site's structure is filtered with for this reader (`visitor.claims`). */
  readonly claims?: Readonly<Record<string, unknown>>;
}

/** The context of one operation call. */
export interface Context extends World {
  /** `null` for the few operations that need no authentication. */
  readonly caller: Caller | null;
  /**
   * The rate-limit key of the address an HTTP call came from (IPv6 by /64), handed to the
   * operations that write for a caller without a token (a lookup records it on the reader token
   * it issues); absent otherwise.
   */
  readonly clientAddress?: string;
}

const ID_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/**
 * Random 20-character base62 identifiers (about 119 bits), from Web Crypto, which every supported
 * runtime provides. The tiny modulo bias of 256 % 62 is irrelevant for identifiers.
 */
export function randomId(length = 20): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  let id = "";
  for (const byte of bytes) id += ID_ALPHABET[byte % ID_ALPHABET.length];
  return id;
}
