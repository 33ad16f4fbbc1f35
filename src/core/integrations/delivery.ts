import { scheduleJob, type JobHandler } from "../jobs/index.js";
import { isOutboundError } from "../net/outbound-error.js";
import { nextSequence } from "../shared/sequence.js";
import type { World } from "../shared/world.js";
import type { WriteTransaction } from "../storage/port.js";
import { eventEnvironment } from "./environment.js";
import {
  type EventLog,
  type EventRecord,
  eventsTable,
  type InstallationRecord,
  type IntegrationRecord,
  integrationsTable,
} from "./tables.js";

/**
 * Events and their delivery to a development tunnel (docs/integrations.md, "Events"). An event is
 * recorded in the transaction of the change that caused it. With development mode on, a job POSTs
 * its payload to the tunnel, signed per Standard Webhooks; a failed attempt (network failure or a
 * status other than 2xx) schedules the next one after {@link DELIVERY_RETRY_DELAYS_MS}, with the
 * same `webhook-id`, until {@link MAX_DELIVERY_ATTEMPTS}. The job schedules its own retries rather
 * than throwing, because the job runner's backoff starts at 30 s and a tunnel being restarted
 * should get the event within seconds; each attempt is a line of the event's trace.
 */

export const DELIVER_EVENT_JOB = "integrations.deliver-event";
/** Delays before the 2nd, 3rd, 4th and 5th attempts. */
export const DELIVERY_RETRY_DELAYS_MS = [5_000, 30_000, 120_000, 600_000] as const;
export const MAX_DELIVERY_ATTEMPTS = DELIVERY_RETRY_DELAYS_MS.length + 1;

const encoder = new TextEncoder();

function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** A new Standard Webhooks secret: `whsec_` and the base64 of 32 random bytes. */
export function newSigningSecret(): string {
  return `whsec_${toBase64(crypto.getRandomValues(new Uint8Array(32)))}`;
}

/**
 * The Standard Webhooks signature of a message: `v1,` and the base64 HMAC-SHA256, keyed by the
 * secret's bytes (the base64 after `whsec_`), of `${id}.${timestamp}.${body}`. Web Crypto, so it
 * runs on every runtime.
 */
export async function signWebhook(secret: string, id: string, timestamp: number, body: string) {
  const keyBytes = Uint8Array.from(atob(secret.replace(/^whsec_/, "")), (char) => char.charCodeAt(0));
  const key = await crypto.subtle.importKey("raw", keyBytes, { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
  const mac = await crypto.subtle.sign("HMAC", key, encoder.encode(`${id}.${timestamp}.${body}`));
  return `v1,${toBase64(new Uint8Array(mac))}`;
}

const log = (world: World, level: EventLog["level"], message: string): EventLog => ({
  message,
  timestamp: world.clock().toISOString(),
  level,
});

/** Whether development mode takes events of `organization`: the owner's, or all with `all`. */
function tunnelTakes(integration: IntegrationRecord, organization: string): boolean {
  return !!integration.dev && (integration.dev.all || organization === integration.organization);
}

/**
 * Records an event of an installation, in the caller's write transaction, and queues its delivery
 * when development mode takes it; otherwise its trace says why nothing was delivered.
 */
export async function recordEvent(
  tx: WriteTransaction,
  world: World,
  integration: IntegrationRecord,
  installation: InstallationRecord,
  payload: Record<string, unknown> & { type: string },
): Promise<EventRecord> {
  const id = world.ids();
  const deliver = tunnelTakes(integration, installation.organization);
  const reason = !integration.dev
    ? "No receiver was set: development mode is off, so the event was not delivered"
    : "Not forwarded: development mode forwards the owner organization's events only (all: false)";
  const event: EventRecord = {
    id,
    integration: integration.name,
    installation: installation.id,
    organization: installation.organization,
    seq: await nextSequence(tx, `integration:${integration.name}`),
    createdAt: world.clock().toISOString(),
    payload: { eventId: id, ...payload },
    delivery: deliver ? "pending" : "none",
    attempts: 0,
    logs: [
      log(world, "info", `Event ${payload.type} recorded`),
      deliver
        ? log(world, "info", `Queued for delivery to the development tunnel ${integration.dev!.tunnelUrl}`)
        : log(world, "info", reason),
    ],
  };
  await tx.put(eventsTable, event);
  if (deliver)
    await scheduleJob(tx, world, integration.organization, DELIVER_EVENT_JOB, world.clock(), {
      event: id,
      attempt: 1,
    });
  return event;
}

/** What one POST to the tunnel gave: a status, or the failure that prevented one. */
type Outcome = { readonly status: number } | { readonly error: string };

async function post(world: World, url: string, headers: Record<string, string>, body: string) {
  try {
    const response = await world.fetch(url, { method: "POST", headers, body });
    return { status: response.status } as Outcome;
  } catch (error) {
    const message = isOutboundError(error) ? `${error.code}: ${error.message}` : String(error);
    return { error: message } as Outcome;
  }
}

/**
 * The delivery job: attempt `payload.attempt` of event `payload.event`. Idempotent: an attempt
 * already recorded (a rerun after the runner died) does nothing.
 */
export const deliverEvent: JobHandler = async (world, payload) => {
  const attempt = Number(payload["attempt"]);
  const eventId = String(payload["event"]);
  // A write: the tokens of the payload's environment may create their signing key.
  const loaded = await world.storage.write(async (tx) => {
    const event = await tx.get(eventsTable, eventId);
    if (!event || event.delivery !== "pending" || event.attempts >= attempt) return undefined;
    const integration = await tx.get(integrationsTable, event.integration);
    const environment =
      integration && tunnelTakes(integration, event.organization)
        ? await eventEnvironment(tx, world, event, integration)
        : undefined;
    return { event, integration, environment };
  });
  if (!loaded) return;
  const { event, integration, environment } = loaded;

  let outcome: Outcome | undefined;
  let url = "";
  if (integration && environment && tunnelTakes(integration, event.organization)) {
    url = integration.dev!.tunnelUrl;
    const body = JSON.stringify({ ...event.payload, environment });
    const timestamp = Math.floor(world.clock().getTime() / 1000);
    const headers = {
      "content-type": "application/json",
      "webhook-id": event.id,
      "webhook-timestamp": String(timestamp),
      "webhook-signature": await signWebhook(integration.signingSecret, event.id, timestamp, body),
    };
    outcome = await post(world, url, headers, body);
  }

  await world.storage.write(async (tx) => {
    const current = await tx.get(eventsTable, eventId);
    if (!current || current.delivery !== "pending" || current.attempts >= attempt) return;
    const updated: EventRecord = { ...current, attempts: attempt };
    const label = `Delivery attempt ${attempt} of ${MAX_DELIVERY_ATTEMPTS} to ${url}`;
    if (!outcome) {
      updated.delivery = "failed";
      updated.logs = [
        ...current.logs,
        log(world, "error", "Not delivered: development mode no longer takes this event"),
      ];
    } else if ("status" in outcome && outcome.status >= 200 && outcome.status < 300) {
      updated.delivery = "delivered";
      updated.logs = [...current.logs, log(world, "info", `${label}: HTTP ${outcome.status}, delivered`)];
    } else {
      const failure = "status" in outcome ? `HTTP ${outcome.status}` : outcome.error;
      const delay = DELIVERY_RETRY_DELAYS_MS[attempt - 1];
      if (delay === undefined) {
        updated.delivery = "failed";
        updated.logs = [...current.logs, log(world, "error", `${label}: ${failure}; giving up`)];
      } else {
        updated.logs = [
          ...current.logs,
          log(world, "warn", `${label}: ${failure}; next attempt in ${delay / 1000} s`),
        ];
        const runAt = new Date(world.clock().getTime() + delay);
        await scheduleJob(tx, world, integration?.organization, DELIVER_EVENT_JOB, runAt, {
          event: eventId,
          attempt: attempt + 1,
        });
      }
    }
    await tx.put(eventsTable, updated);
  });
};
