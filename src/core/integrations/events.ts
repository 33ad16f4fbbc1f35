import * as z from "zod";
import { findMembership } from "../permissions/membership.js";
import { defineOperation } from "../registry.js";
import { notFound } from "../shared/errors.js";
import { listOf, pageQuery, paginate } from "../shared/pagination.js";
import { pathParam } from "../shared/schema.js";
import type { Context } from "../shared/world.js";
import type { ReadTransaction } from "../storage/port.js";
import { onIntegration, type IntegrationAccess } from "./access.js";
import { presentEvent } from "./present.js";
import {
  type IntegrationEvent,
  integrationEventSchema,
  integrationEventWithTrace,
  integrationParams,
} from "./schemas.js";
import { type EventRecord, eventsTable } from "./tables.js";

/**
 * Integration events, newest first. The admins of the integration's owner organization read every
 * event; the admins of an organization where it is installed read that organization's events;
 * anyone else reads none.
 */

const tag = "integrations";

function canReadEvent(scope: Context & IntegrationAccess & { tx: ReadTransaction }) {
  const admin = new Map<string, Promise<boolean>>();
  return (event: EventRecord): Promise<boolean> => {
    if (scope.permissions.admin) return Promise.resolve(true);
    let found = admin.get(event.organization);
    if (!found) {
      found = findMembership(scope.tx, scope, event.organization).then(
        (membership) => membership?.role === "admin",
      );
      admin.set(event.organization, found);
    }
    return found;
  };
}

export const listIntegrationEvents = defineOperation({
  id: "listIntegrationEvents",
  method: "get",
  path: "/integrations/{integrationName}/events",
  tag,
  summary:
    "List the events of an integration, newest first: all for its owner's admins, else those of organizations the caller administers",
  access: onIntegration("view"),
  params: integrationParams,
  query: z.object({ ...pageQuery }),
  response: listOf(integrationEventSchema),
  async run(scope, { query }) {
    return paginate<EventRecord, IntegrationEvent>(scope.tx, query, {
      table: eventsTable,
      index: "byIntegration",
      where: [scope.integration.name],
      reverse: true,
      filter: canReadEvent(scope),
      map: presentEvent,
    });
  },
});

export const getIntegrationEvent = defineOperation({
  id: "getIntegrationEvent",
  method: "get",
  path: "/integrations/{integrationName}/events/{eventId}",
  tag,
  summary: "Get an integration event with its trace: one log line per step and delivery attempt",
  access: onIntegration("view"),
  params: integrationParams.extend({ eventId: pathParam() }),
  response: integrationEventWithTrace,
  async run(scope, { params }) {
    const event = await scope.tx.get(eventsTable, params.eventId);
    if (!event || event.integration !== scope.integration.name || !(await canReadEvent(scope)(event))) {
      throw notFound(`Integration event "${params.eventId}" not found`);
    }
    return { event: presentEvent(event), trace: { logs: event.logs } };
  },
});

export const eventOperations = { listIntegrationEvents, getIntegrationEvent };
