import { badRequest } from "../shared/errors.js";
import type { IntegrationRecord } from "./tables.js";

/**
 * An installation's configuration, checked against what the integration declares for accounts
 * (`configurations.account` of its published definition; docs/integrations.md, "Configuration").
 * A declared schema of properties is enforced: every key must be a declared property whose value
 * has the property's type (and is one of its `enum`, when it has one), and every `required`
 * property must be there. A ContentKit component (`componentId`) declares no schema: the
 * integration's own UI shapes the configuration, and only its size is bounded. An integration
 * that declares no account configuration takes none.
 */

/** Largest configuration: its JSON in UTF-8 bytes. */
export const MAX_CONFIGURATION_BYTES = 32_768;

interface DeclaredProperty {
  readonly type: "string" | "number" | "boolean" | "button";
  readonly enum?: readonly string[];
}

interface DeclaredSchema {
  readonly properties: Readonly<Record<string, DeclaredProperty>>;
  readonly required?: readonly string[];
}

const FIELD = "body.configuration";

/**
 * Fails with 400, naming the field, unless `configuration` fits the integration's declared
 * account configuration.
 */
export function checkConfiguration(integration: IntegrationRecord, configuration: Record<string, unknown>) {
  const bytes = new TextEncoder().encode(JSON.stringify(configuration)).byteLength;
  if (bytes > MAX_CONFIGURATION_BYTES) {
    throw badRequest(`${FIELD}: Too big: ${bytes} bytes of JSON, at most ${MAX_CONFIGURATION_BYTES}`);
  }
  const declared = integration.configurations["account"] as
    DeclaredSchema | { readonly componentId: string } | undefined;
  const keys = Object.keys(configuration);
  if (declared === undefined) {
    if (keys.length > 0) {
      throw badRequest(
        `${FIELD}.${keys[0]}: Integration "${integration.name}" declares no account configuration`,
      );
    }
    return;
  }
  if (!("properties" in declared)) return;
  for (const key of keys) {
    const property = Object.hasOwn(declared.properties, key) ? declared.properties[key] : undefined;
    if (!property) {
      const known = Object.keys(declared.properties);
      throw badRequest(
        `${FIELD}.${key}: Not a property of "${integration.name}"'s configuration (${known.length > 0 ? known.join(", ") : "it declares none"})`,
      );
    }
    checkValue(`${FIELD}.${key}`, property, configuration[key]);
  }
  for (const name of declared.required ?? []) {
    if (configuration[name] === undefined) throw badRequest(`${FIELD}.${name}: Required`);
  }
}

function checkValue(field: string, property: DeclaredProperty, value: unknown) {
  if (property.type === "button") {
    throw badRequest(`${field}: A button property holds no value`);
  }
  if (typeof value !== property.type || (typeof value === "number" && !Number.isFinite(value))) {
    throw badRequest(`${field}: Expected a ${property.type}`);
  }
  if (property.enum && !property.enum.includes(value as string)) {
    throw badRequest(`${field}: Expected one of ${property.enum.map((item) => `"${item}"`).join(", ")}`);
  }
}
