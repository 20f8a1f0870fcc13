// The closed list of error codes (contract §20.1) and the one error type that carries them.
// Every failure a client can see is an ApiError; the HTTP and MCP adapters turn it into the envelope.

import { holdsKey, redactKeys } from './key-shape';
import { wellFormedText } from './well-formed';

export const ERROR_STATUS = {
  invalid_filter: 400,
  malformed_cursor: 400,
  page_size_exceeded: 400,
  missing_api_key: 401,
  invalid_api_key: 401,
  revoked_api_key: 401,
  insufficient_balance: 402,
  opportunity_quota_exhausted: 402,
  api_access_disabled: 403,
  api_access_suspended: 403,
  plan_access_pending: 403,
  plan_access_expired: 403,
  origin_not_allowed: 403,
  opportunity_not_found: 404,
  not_found: 404,
  method_not_allowed: 405,
  duplicate_request_id: 409,
  payload_too_large: 413,
  request_header_fields_too_large: 431,
  validation_error: 422,
  rate_limit_exceeded: 429,
  preview_rate_limit_exceeded: 429,
  internal_server_error: 500,
  metering_unavailable: 503,
  search_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** Short machine-readable reasons for 400/422 (contract §4.7): a closed list. */
export const ERROR_REASONS = [
  'unknown_parameter',
  'repeated',
  'unknown_value',
  'out_of_range',
  'bad_format',
  'not_a_list',
  'unsupported',
  'missing',
] as const;
export type ErrorReason = (typeof ERROR_REASONS)[number];

export interface ErrorDetails {
  parameter: string;
  reason: ErrorReason;
}

export class ApiError extends Error {
  readonly status: number;
  /** Response headers that belong with this error (rate limit and usage, contract §18). */
  headers: Record<string, string> = {};
  /**
   * The key that was authenticated, with its account and rates, when the error comes after
   * authentication but before the service (a 403 for the account's status, a malformed
   * X-Request-ID): the account's usage headers go out, and the request is counted against the
   * rate limit and answered with its window (contract §18.2, §19.1, §19.2). `ownAllowance`: the
   * key has an allowance of its own, so its usage figures are the key's (contract §15.4).
   */
  authenticated?: {
    accountId: string;
    keyId: string;
    accountRps: number;
    keyRps: number | null;
    ownAllowance: boolean;
  };
  /**
   * contract §17.2, §20.5.2: a refusal (429) or a failure of ours that says nothing about the request (a
   * search-engine 400 the caller's input did not cause) leaves its request id unspent, so the same
   * id may be retried.
   */
  keepsRequestId = false;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetails,
    /** Seconds a client should wait before retrying (429 and 503). */
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = ERROR_STATUS[code];
  }
}

export const invalidFilter = (parameter: string, reason: ErrorReason, message: string) =>
  new ApiError('invalid_filter', message, { parameter, reason });

export const validationError = (parameter: string, reason: ErrorReason, message: string) =>
  new ApiError('validation_error', message, { parameter, reason });

/**
 * contract §6.3, §4.7: a name the endpoint or tool does not know is refused and named (cut at 64
 * characters, JSON-quoted), its value never echoed (a key in the URL is just such a name). REST,
 * the change feed and the MCP tools all refuse with this one error.
 */
export function unknownParameter(name: string): ApiError {
  // A key as the name (`?oppk_…`, `?x-oppk_…=1`) says so, as a key as the value does (§6.14).
  if (holdsKey(name)) return pastedKey(name);
  const shown = shownName(name);
  return invalidFilter(shown, 'unknown_parameter', `Unknown parameter ${quoteValue(name)}.`);
}

/**
 * contract §6.14: a key pasted as the value of a parameter or argument the endpoint reads is a key
 * in the query string, so an unknown parameter as decisions have it, refused before its value is
 * read; the message says why instead of claiming the parameter is unknown, and never shows the key.
 */
export function pastedKey(name: string): ApiError {
  const shown = quoteValue(name);
  return invalidFilter(
    shownName(name),
    'unknown_parameter',
    `${shown} holds an API key, which is never read from a parameter: send it in the X-API-Key header.`,
  );
}

/**
 * A name the caller sent, as an error message may show it: cut at 64 characters (code points: a
 * cut between the halves of an emoji left a lone surrogate in `details.parameter`), a key pasted
 * as the name itself (`?oppk_…`) hidden, a lone surrogate read as U+FFFD. JSON-quote it where it
 * is shown, so no control character reaches a one-line message.
 */
export function shownName(name: string): string {
  const shown = wellFormedText(redactKeys(name));
  if (shown.length <= 64) return shown;
  const chars = [...shown];
  return chars.length > 64 ? `${chars.slice(0, 64).join('')}…` : shown;
}

/**
 * A message that quotes what a caller sent (a JSON-RPC params path, an SDK sentence naming a
 * header or a tool), on one line and bounded: keys hidden, a lone surrogate read as U+FFFD, every
 * control or line-breaking character (C0, DEL, C1, U+2028, U+2029) a space, at most `max`
 * characters (code points).
 */
export function quotedLine(text: string, max = 200): string {
  return [...wellFormedText(redactKeys(text))]
    .slice(0, max)
    .join('')
    .replace(/[\p{Cc}\u2028\u2029]/gu, ' ');
}

/**
 * A value the caller sent, as a message shows it: as shownName (a key hidden, cut), JSON-quoted,
 * with the characters JSON leaves raw but a reader takes for a break or a control (DEL, C1, U+2028,
 * U+2029) escaped as JSON escapes C0 ("Unknown tool: \"a\u2028b\""), so the message stays one line.
 */
export const quoteValue = (value: string): string =>
  JSON.stringify(shownName(value)).replace(
    /[\u007f-\u009f\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );

/** A detail id that is not a uuid (the path segment, or the MCP tool's `id`). */
export const badOpportunityId = (id?: unknown) =>
  id === undefined
    ? validationError('opportunity_id', 'missing', 'opportunity_id is required: a uuid.')
    : validationError('opportunity_id', 'bad_format', 'opportunity_id must be a uuid.');

/**
 * contract §8.4: every cursor problem (empty, not ours, tampered, another query's or account's, a
 * retired key, another feed position) is this one 400, so a client learns nothing about which
 * check failed, only what to do.
 */
export const malformedCursor = () =>
  new ApiError(
    'malformed_cursor',
    'The cursor is not valid for this request: pass pagination.next_cursor back unchanged, with the same filters, or start again without a cursor.',
    { parameter: 'cursor', reason: 'bad_format' },
  );

export interface ErrorEnvelope {
  error: { code: ErrorCode; message: string; request_id: string; details?: ErrorDetails };
}

export function toEnvelope(err: ApiError, requestId: string): ErrorEnvelope {
  return {
    error: {
      code: err.code,
      message: err.message,
      request_id: requestId,
      ...(err.details ? { details: err.details } : {}),
    },
  };
}
