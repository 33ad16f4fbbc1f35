import type { Role, DefaultLevel } from "./shared/roles.js";
import { SEQUENCES_TABLE } from "./shared/sequence.js";
import type { StorageSchema, TableSchema } from "./storage/port.js";

/**
 * Every table core stores, with the indexes its queries need, and the shape of its records.
 * Index fields hold strings or numbers only (see TableSchema); where a value is optional, the
 * record carries an explicit index value instead (for example `parent: ""` at the root).
 */

const table = <const T extends TableSchema>(schema: T): T => schema;

export const tables = {
  users: table({
    name: "users",
    key: "id",
    indexes: { byEmail: ["emailKey"], byKind: ["kind", "createdAt"] },
  }),
  tokens: table({ name: "tokens", key: "hash", indexes: { byUser: ["user", "createdAt"] } }),
  organizations: table({ name: "organizations", key: "id", indexes: { byHostname: ["hostname"] } }),
  members: table({
    name: "members",
    key: "key",
    indexes: {
      byOrganization: ["organization", "seq"],
      byOrganizationSeen: ["organization", "seenAt"],
      byUser: ["user", "seq"],
      /** Members holding a role (guests, whose role is null, are not indexed): finds the admins. */
      byRole: ["organization", "role", "seq"],
    },
  }),
  invites: table({ name: "invites", key: "id", indexes: { byOrganization: ["organization", "seq"] } }),
  teams: table({ name: "teams", key: "id", indexes: { byOrganization: ["organization", "seq"] } }),
  teamMembers: table({
    name: "teamMembers",
    key: "key",
    indexes: { byTeam: ["team", "seq"], byMember: ["organization", "user"] },
  }),
  collections: table({
    name: "collections",
    key: "id",
    indexes: {
      byOrganization: ["organization", "position"],
      byParent: ["organization", "parent", "position"],
    },
  }),
  spaces: table({
    name: "spaces",
    key: "id",
    indexes: {
      byOrganization: ["organization", "state", "position"],
      byParent: ["organization", "parent", "state", "position"],
      byState: ["state", "deletedAt"],
    },
  }),
  revisions: table({ name: "revisions", key: "id", indexes: { bySpace: ["space", "seq"] } }),
  pageVersions: table({ name: "pageVersions", key: "id", indexes: {} }),
  fileVersions: table({ name: "fileVersions", key: "id", indexes: {} }),
  blobs: table({ name: "blobs", key: "hash", indexes: {} }),
  exports: table({ name: "exports", key: "id", indexes: {} }),
  changeRequests: table({
    name: "changeRequests",
    key: "id",
    indexes: {
      bySpaceNumber: ["space", "number"],
      bySpaceStatus: ["space", "status", "number"],
      byOrganization: ["organization", "seq"],
      byOrganizationStatus: ["organization", "status", "seq"],
    },
  }),
  /** Comments of a space (`changeRequest: ""`) or of a change request; see comments/. */
  comments: table({
    name: "comments",
    key: "id",
    indexes: {
      byScope: ["space", "changeRequest", "seq"],
      byStatus: ["space", "changeRequest", "status", "seq"],
      byPage: ["space", "changeRequest", "page", "seq"],
      byPageStatus: ["space", "changeRequest", "page", "status", "seq"],
    },
  }),
  commentReplies: table({ name: "commentReplies", key: "id", indexes: { byComment: ["comment", "seq"] } }),
  commenters: table({
    name: "commenters",
    key: "key",
    indexes: { byScope: ["space", "changeRequest", "seq"] },
  }),
  sequences: SEQUENCES_TABLE,
  jobs: table({ name: "jobs", key: "id", indexes: { byRunAt: ["runAt"] } }),
} as const;

export const storageSchema: StorageSchema = { tables: Object.values(tables) };

export interface UserRecord {
  [key: string]: unknown;
  id: string;
  displayName: string;
  email: string;
  /** Lower-cased email, for lookups by email. */
  emailKey: string;
  photoURL?: string;
  /** "operator" for the bootstrap user who manages users, "user" otherwise. */
  kind: "operator" | "user";
  createdAt: string;
}

export interface TokenRecord {
  [key: string]: unknown;
  /** SHA-256 of the token, hex. The token itself is never stored. */
  hash: string;
  id: string;
  user: string;
  createdAt: string;
}

export interface OrganizationRecord {
  [key: string]: unknown;
  id: string;
  title: string;
  createdAt: string;
  emailDomains: string[];
  hostname?: string;
  type: "business" | "community";
  defaultRole: Role | null;
  defaultContent?: { type: "site"; site: string };
  logo?: string;
  sso: boolean;
  ai: boolean;
  inviteLinks: boolean;
  plan: string;
  mergeRules: { type: "none" } | { type: "rules"; rules: unknown[] };
}

export interface MemberRecord {
  [key: string]: unknown;
  /** `${organization}:${user}` */
  key: string;
  organization: string;
  user: string;
  /** Insertion order (see shared/sequence.ts). */
  seq: number;
  role: Role | null;
  joinedAt: string;
  lastSeenAt?: string;
  /** `lastSeenAt`, or `joinedAt` before the first visit: the index value of the lastSeenAt sort. */
  seenAt: string;
  disabled: boolean;
  sso: boolean;
}

export interface InviteRecord {
  [key: string]: unknown;
  id: string;
  organization: string;
  /** Insertion order (see shared/sequence.ts). */
  seq: number;
  createdAt: string;
  target:
    | { type: "organization"; role: Role | null }
    | { type: "space"; space: string; level: Role | null }
    | { type: "collection"; collection: string; level: Role | null };
}

export interface TeamRecord {
  [key: string]: unknown;
  id: string;
  organization: string;
  /** Insertion order (see shared/sequence.ts). */
  seq: number;
  title: string;
  createdAt: string;
}

export interface TeamMemberRecord {
  [key: string]: unknown;
  /** `${team}:${user}` */
  key: string;
  team: string;
  organization: string;
  user: string;
  /** Insertion order (see shared/sequence.ts). */
  seq: number;
  role: "owner" | "member";
  addedAt: string;
}

export interface CollectionRecord {
  [key: string]: unknown;
  id: string;
  organization: string;
  /** Parent collection id, or "" at the organization root. */
  parent: string;
  title: string;
  description?: string;
  defaultLevel: DefaultLevel;
  /** Fractional-index key ordering siblings (shared by collections and spaces of an org). */
  position: string;
  createdAt: string;
}

export interface SpaceRecord {
  [key: string]: unknown;
  id: string;
  organization: string;
  parent: string;
  /** "live", or "deleted" while restorable. */
  state: "live" | "deleted";
  position: string;
  title: string;
  emoji: string;
  visibility: "public" | "unlisted" | "share-link" | "visitor-auth" | "in-collection" | "private";
  editMode: "live" | "locked";
  defaultLevel: DefaultLevel;
  language?: string;
  mergeRules: { type: "inherit" } | { type: "none" } | { type: "rules"; rules: unknown[] };
  revision: string;
  createdAt: string;
  updatedAt: string;
  deletedAt?: string;
  /** Counters fed by change requests and comments. */
  counters: {
    comments: number;
    changeRequests: number;
    changeRequestsOpen: number;
    changeRequestsDraft: number;
  };
}

/**
 * An immutable revision of a space's content. Content is a map from page id to page version and
 * from file id to file version. A revision stores either the whole map (`snapshot`) or only what
 * changed since `base` (`delta`), with `depth` counting deltas since the last snapshot; unchanged
 * page and file versions are shared, never copied (see content/revisions.ts).
 */
export interface RevisionRecord {
  [key: string]: unknown;
  id: string;
  space: string;
  /** Insertion order (see shared/sequence.ts). */
  seq: number;
  parents: string[];
  createdAt: string;
  type: "edits" | "merge" | "update";
  snapshot?: ContentMap;
  base?: string;
  delta?: ContentDelta;
  depth?: number;
}

export interface ContentMap {
  pages: Record<string, string>;
  files: Record<string, string>;
}

export interface ContentDelta {
  pages: Record<string, string | null>;
  files: Record<string, string | null>;
}

/** One immutable version of a page: its content and its place in the tree. */
export interface PageVersionRecord {
  [key: string]: unknown;
  /** Version id. */
  id: string;
  /** Stable page id, the same across versions. Versions carry no space: duplicates share them. */
  page: string;
  /** Parent page id, or "" at the root. */
  parent: string;
  /** Fractional-index key among siblings. */
  position: string;
  type: "document";
  title: string;
  slug: string;
  emoji?: string;
  description?: string;
  markdown: string;
  hidden: boolean;
  noIndex?: boolean;
  noRobotsIndex?: boolean;
  layout?: Record<string, unknown>;
  cover?: Record<string, unknown>;
  variables?: Record<string, string>;
  createdAt: string;
  updatedAt: string;
}

/** One immutable version of a file. Its bytes live in `blobs`, shared by content hash. */
export interface FileVersionRecord {
  [key: string]: unknown;
  id: string;
  file: string;
  name: string;
  contentType: string;
  /** SHA-256 of the bytes, hex: the key of the blob. */
  blob: string;
  size: number;
  dimensions?: { width: number; height: number };
  createdAt: string;
}

export interface BlobRecord {
  [key: string]: unknown;
  hash: string;
  /** The bytes, base64. */
  data: string;
  size: number;
}

/** A PDF export: a capability to download the rendering of one revision until `expiresAt`. */
export interface ExportRecord {
  [key: string]: unknown;
  id: string;
  space: string;
  revision: string;
  title: string;
  /** The page to start from; all pages when absent. */
  page?: string;
  /** With `page`: that page alone, without its descendants. */
  only: boolean;
  createdAt: string;
  expiresAt: string;
}

export type ChangeRequestStatus = "draft" | "open" | "archived" | "merged";

export interface ChangeRequestRecord {
  [key: string]: unknown;
  id: string;
  space: string;
  organization: string;
  /** Incremental per space, from 1. */
  number: number;
  /** Insertion order (see shared/sequence.ts). */
  seq: number;
  status: ChangeRequestStatus;
  subject: string;
  description?: Record<string, unknown>;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
  /** Head revision of the change request. */
  revision: string;
  revisionInitial: string;
  revisionMergedAncestor?: string;
  revisionMerged?: string;
  /** Users who wrote content in the change request. */
  contributors: string[];
  requestedReviewers: string[];
  comments: number;
  /** Id of an associated conversations issues cluster (list filter). */
  conversationsIssuesCluster?: string;
}

export interface JobRecord {
  [key: string]: unknown;
  id: string;
  type: string;
  runAt: string;
  payload: Record<string, unknown>;
}

/** A reaction of one user with one emoji. */
export interface ReactionRecord {
  emoji: string;
  user: string;
  reactedAt: string;
}

export interface CommentRecord {
  [key: string]: unknown;
  id: string;
  space: string;
  /** The change request id, or "" for a comment on the space. */
  changeRequest: string;
  /** Insertion order (see shared/sequence.ts). */
  seq: number;
  status: "open" | "resolved";
  /** The target page id, or "" when the comment is not on a page. */
  page: string;
  node?: string;
  tableCell?: { record: string; definition: string };
  /** The revision of the content when the comment was posted. */
  revision: string;
  postedBy: string;
  postedAt: string;
  editedAt?: string;
  markdown: string;
  reactions: ReactionRecord[];
  replies: number;
  /** Per replier, in order of their first reply: their reply count and latest reply time. */
  repliers: { user: string; count: number; updatedAt: string }[];
  resolvedAt?: string;
  resolvedBy?: string;
}

export interface CommentReplyRecord {
  [key: string]: unknown;
  id: string;
  comment: string;
  space: string;
  changeRequest: string;
  /** Insertion order (see shared/sequence.ts). */
  seq: number;
  postedBy: string;
  postedAt: string;
  editedAt?: string;
  markdown: string;
  reactions: ReactionRecord[];
}

/** A user with comments or replies in a space or change request, and how many they have. */
export interface CommenterRecord {
  [key: string]: unknown;
  /** `${space}:${changeRequest}:${user}` */
  key: string;
  space: string;
  changeRequest: string;
  user: string;
  /** Insertion order of the first post (see shared/sequence.ts). */
  seq: number;
  posts: number;
}
