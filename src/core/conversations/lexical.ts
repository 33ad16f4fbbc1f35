import type {
  AnalyzedIssue,
  ConversationAnalyzer,
  ConversationImpact,
  ConversationToAnalyze,
} from "./analyzer.js";
import { nextMacrotask } from "./pause.js";

/**
 * The built-in analyzer (docs/conversations.md, "The built-in analyzer"): lexical, in process,
 * deterministic, with no network, so it runs the same on every runtime. It reads only the
 * messages of the `user` role (agents' replies are alike across topics and would glue clusters
 * together), finds at most one issue per conversation, and rates its impact from signal phrases,
 * message by message (a signal phrase does not span two messages).
 */

const STOP_WORDS = new Set(
  (
    "a about above after again against all also am an and any are aren as at be because been before being " +
    "below between both but by can cannot could couldn did didn do does doesn doing don down during each " +
    "even ever every few for from further get got had hadn has hasn have haven having he her here hers " +
    "herself him himself his how however i if in into is isn it its itself just know let like ll me " +
    "might more most much must my myself need no nor not now of off on once only or other our ours " +
    "ourselves out over own please re same she should shouldn so some still such than thank thanks that " +
    "the their theirs them themselves then there these they this those through to too under until up " +
    "us ve very want was wasn we were weren what when where which while who whom why will with won " +
    "would wouldn you your yours yourself yourselves hi hello hey dear team support morning afternoon " +
    "cheers regards best appreciated appreciate help advance great ok okay yes yeah sorry one two " +
    "today yesterday week day days anyone someone something anything again since though already " +
    "let us tried try trying see seems seem looks look sure wanted just thing things way lot"
  ).split(" "),
);

/** Crude suffix stripping, so that "syncing", "synced" and "syncs" meet in "sync". */
export function stem(word: string): string {
  if (word.length > 4 && word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (word.length > 5 && word.endsWith("ing")) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith("ed")) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith("s") && !word.endsWith("ss")) return word.slice(0, -1);
  return word;
}

/** The content terms of a text: lower-cased words of letters and digits, stop words left out. */
export function terms(text: string): string[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+(?:[.'][\p{L}\p{N}]+)*/gu) ?? [];
  return words
    .map((word) => word.replace(/'.*$/, ""))
    .filter((word) => word.length > 1 && !STOP_WORDS.has(word))
    .map(stem)
    .filter((word) => word.length > 1 && !STOP_WORDS.has(word));
}

/** Phrases that signal a blocking problem: data loss, crashes, lockouts, no workaround. */
const HIGH_SIGNALS = [
  "data loss",
  "lost all",
  "lost my",
  "lost our",
  "were lost",
  "was lost",
  "lost content",
  "disappeared",
  "wiped",
  "deleted",
  "crash",
  "crashed",
  "crashes",
  "crashing",
  "blocked",
  "blocking",
  "blocker",
  "no workaround",
  "locked out",
  "outage",
  "urgent",
  "production is down",
  "every time",
  "corrupted",
];

/** Phrases that signal friction that hurts: errors, failures, something broken or missing. */
const MEDIUM_SIGNALS = [
  "error",
  "errors",
  "fail",
  "fails",
  "failed",
  "failing",
  "broken",
  "not working",
  "doesn't work",
  "does not work",
  "stopped working",
  "stuck",
  "workaround",
  "unable",
  "cannot",
  "can't",
  "missing",
  "wrong",
  "slow",
  "timeout",
  "unauthorized",
  "forbidden",
];

/** "not urgent", "no crash": a signal right after a negation does not count. */
const NEGATIONS = /\b(?:not|no|never|without|isn't|wasn't|nothing)\s+(?:\w+\s+)?$/;

function signals(text: string, phrases: readonly string[]): string[] {
  const found: string[] = [];
  for (const phrase of phrases) {
    const pattern = new RegExp(`\\b${phrase.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\b`, "g");
    for (const match of text.matchAll(pattern)) {
      const before = text.slice(Math.max(0, match.index - 24), match.index);
      if (phrase === "no workaround" || !NEGATIONS.test(before)) {
        found.push(phrase);
        break;
      }
    }
  }
  return found;
}

/**
 * The impact from the user's words: `high` on any blocking signal (data loss, a crash, being
 * blocked or locked out, no workaround, urgency), else `medium` on a failure signal (an error,
 * something broken, stuck or missing, a workaround), else `low`.
 */
export function rateImpact(text: string): ConversationImpact {
  const lower = text.toLowerCase().replace(/\u2019/g, "'");
  if (signals(lower, HIGH_SIGNALS).length) return "high";
  if (signals(lower, MEDIUM_SIGNALS).length) return "medium";
  return "low";
}

/** Fewer distinct content terms than this in the user's messages: no issue (a thank-you, a ping). */
export const MIN_ISSUE_TERMS = 4;
const MAX_TITLE = 120;

function firstSentence(text: string): string {
  const sentence = text
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^(?:hi|hello|hey|dear|good (?:morning|afternoon|evening))\b[^,.!]*[,.!]\s*/i, "")
    .split(/(?<=[.!?])\s/)[0]!;
  return sentence.length > MAX_TITLE ? `${sentence.slice(0, MAX_TITLE - 1).trimEnd()}…` : sentence;
}

/** Characters of text worked through between two turns given to the event loop. */
const CHUNK = 50_000;

/**
 * One message at a time, with a turn given to the event loop whenever `CHUNK` characters were
 * read: a conversation at the ingestion limits (10 MiB of text) never holds the loop for long.
 */
async function analyzeLexically(conversation: ConversationToAnalyze): Promise<AnalyzedIssue[]> {
  const messages: string[] = [];
  const counts: Record<string, number> = {};
  let impact: ConversationImpact = "low";
  let read = 0;
  for (const part of conversation.parts) {
    if (part.role !== "user") continue;
    const message = part.body.replace(/<[^>]*>/g, " ").trim();
    if (!message) continue;
    messages.push(message);
    for (const word of terms(message)) counts[word] = (counts[word] ?? 0) + 1;
    if (impact !== "high") impact = highestOf(impact, rateImpact(message));
    read += message.length;
    if (read >= CHUNK) {
      read = 0;
      await nextMacrotask();
    }
  }
  if (Object.keys(counts).length < MIN_ISSUE_TERMS) return [];
  // The subject counts once more: it is the user's own summary of the problem.
  for (const word of terms(conversation.subject ?? "")) counts[word] = (counts[word] ?? 0) + 1;
  const title = conversation.subject?.trim() || firstSentence(messages[0]!);
  return [{ title, details: messages.join("\n\n"), impact, terms: counts }];
}

function highestOf(a: ConversationImpact, b: ConversationImpact): ConversationImpact {
  return a === "high" || b === "high" ? "high" : a === "medium" || b === "medium" ? "medium" : "low";
}

/** The built-in analyzer, used when `createDocsbase` is given no `conversationAnalyzer`. */
export const lexicalAnalyzer: ConversationAnalyzer = { analyze: analyzeLexically };
