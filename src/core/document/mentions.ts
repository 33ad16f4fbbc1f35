import type { Nodes } from "mdast";
import { parseMarkdown } from "./markdown.js";

/**
 * Mentions of users. The reference writes one as a void `mention` inline holding
 * `{ref: {kind: "user", user}}`; markdown writes it as a link to `user:<id>`, shown as `@<id>`
 * (`[@u1](user:u1)`), and reads such a link back as the mention. The renderer shows the user's
 * name and photo, read with `getUserById`.
 */

/** The link URL of a mention of the user `id`. */
export const mentionUrl = (id: string): string => `${MENTION_SCHEME}${id}`;

/** The user a link URL mentions, or undefined when it is not a mention. */
export function mentionedUser(url: string): string | undefined {
  return MENTION_URL.exec(url)?.[1];
}

/**
 * Every user that page markdown mentions, once each, in order of first mention. A link to
 * `user:<id>` in code, or as text, mentions nobody: only links the parser sees count.
 */
export function mentionsIn(markdown: string): string[] {
  if (!markdown.includes(MENTION_SCHEME)) return [];
  const users = new Set<string>();
  const visit = (node: Nodes): void => {
    if (node.type === "link") {
      const user = mentionedUser(node.url);
      if (user !== undefined) users.add(user);
    }
    if ("children" in node) for (const child of node.children) visit(child);
  };
  visit(parseMarkdown(markdown));
  return [...users];
}

const MENTION_SCHEME = "user:";
/** A user id: what ids are made of, nothing a URL could smuggle. */
const MENTION_URL = /^user:([A-Za-z0-9_-]{1,64})$/;
