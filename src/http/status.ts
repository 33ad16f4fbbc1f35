import type { ErrorCode } from "../core/shared/errors.js";
import type { PlainAnswer } from "./plain.js";

/** The one table from core error codes to HTTP statuses (STYLE.md, rule 5). */
export const STATUS_OF: Record<ErrorCode, number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  gone: 410,
  precondition_failed: 412,
  payload_too_large: 413,
  unsupported_media_type: 415,
  unavailable: 503,
};

/** The reference error body, `{"error": {"code": <status>, "message": "..."}}`, as an answer. */
export function errorAnswer(
  status: number,
  message: string,
  headers: Record<string, string> = {},
): PlainAnswer {
  return {
    status,
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ error: { code: status, message } }),
  };
}
