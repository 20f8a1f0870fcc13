import { z } from 'zod';
import { ERROR_STATUS, type ErrorCode } from '../domain/errors';
import { restQuerySchema, type Endpoint } from '../domain/filters';
import { RESPONSE_HEADERS, REST_CHALLENGE } from '../domain/response-headers';
import { componentRef } from './openapi-schemas';

// The pieces the route declarations (http/operations.ts) are written with: parameters generated
// from the filter catalog's zod schemas, responses named by their component, error responses
// described from the closed list of codes (domain/errors.ts). Nothing here is restated by hand.

export type JsonSchema = Record<string, unknown>;

export const jsonSchema = (schema: z.ZodType): JsonSchema => {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io: 'output',
  });
  return rest;
};

export const ref = componentRef;
export const str = { schema: { type: 'string' } };

/** components.headers: every header of an authenticated response (domain/response-headers.ts). */
export const HEADER_COMPONENTS: Record<string, { description: string; schema: JsonSchema }> =
  Object.fromEntries(
    Object.entries(RESPONSE_HEADERS).map(([name, { description, schema }]) => [
      name,
      { description, schema: { ...schema } },
    ]),
  );

const headerRefs = (names: string[]) =>
  Object.fromEntries(names.map((n) => [n, { $ref: `#/components/headers/${n}` }]));
/** The headers of every authenticated response, 304s and errors included (contract §18.2). */
export const AUTH_HEADERS = headerRefs(Object.keys(RESPONSE_HEADERS));

/**
 * Codes that no documented operation answers with their status's other codes: /mcp's Origin check,
 * a path that is no route, and the preview's own 429 (its operation names it).
 */
const UNDOCUMENTED: readonly ErrorCode[] = [
  'origin_not_allowed',
  'not_found',
  'preview_rate_limit_exceeded',
];
/** Statuses whose errors carry Retry-After (ApiError.retryAfter). */
const RETRYABLE = new Set(['429', '503']);

const RETRY_AFTER = {
  description: 'Whole seconds to wait before retrying.',
  schema: { type: 'integer', minimum: 1 },
};

/** The codes of a status, from the closed list: "a, b or c". */
function codesOf(status: string): ErrorCode[] {
  return (Object.keys(ERROR_STATUS) as ErrorCode[]).filter(
    (code) => String(ERROR_STATUS[code]) === status && !UNDOCUMENTED.includes(code),
  );
}

function orList(words: readonly string[]): string {
  return words.length < 2
    ? (words[0] ?? '')
    : `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`;
}

/** One error response: the codes it may carry, the error envelope, Retry-After where it applies. */
export function errorResponse(
  status: string,
  headers: Record<string, unknown>,
  codes: readonly ErrorCode[] = codesOf(status),
) {
  const retryable = RETRYABLE.has(status);
  return {
    description: `${orList(codes)}${retryable ? ' (with Retry-After)' : ''}`,
    headers: retryable ? { ...headers, 'Retry-After': RETRY_AFTER } : headers,
    content: { 'application/json': { schema: ref('ErrorEnvelope') } },
  };
}

/**
 * The error responses of an operation. `only` narrows a status to the codes this operation can
 * give (the preview has no cursor to find malformed); by default a status lists all of its codes.
 */
export function errors(
  statuses: string[],
  headers: Record<string, unknown>,
  only: Partial<Record<string, readonly ErrorCode[]>> = {},
) {
  // contract §18.2: a 401 names no account and carries none of its usage headers: the request id,
  // its challenge and the address's window of failed authentications.
  return Object.fromEntries(
    statuses.map((s) => [
      s,
      errorResponse(s, s === '401' ? UNAUTHENTICATED_HEADERS : headers, only[s]),
    ]),
  );
}

/**
 * A REST 401's headers (adapter/authenticate.ts writes the challenge; service/auth.ts the window of
 * contract §19.5, which no account's limit can describe).
 */
const UNAUTHENTICATED_HEADERS = {
  ...headerRefs(['X-Request-ID']),
  'WWW-Authenticate': {
    description: `The challenge, naming the header the key goes in: \`${REST_CHALLENGE}\`.`,
    schema: { type: 'string' },
  },
  'X-RateLimit-Limit': {
    description:
      'Failed authentications this address may make in the window (a minute) before 429.',
    schema: { type: 'integer' },
  },
  'X-RateLimit-Remaining': {
    description: 'Failed authentications left to this address in the window.',
    schema: { type: 'integer' },
  },
  'X-RateLimit-Reset': {
    description: 'Seconds until the window of failed authentications resets.',
    schema: { type: 'integer' },
  },
};

/** What an authenticated read may answer besides its success. */
export const AUTH_ERRORS = ['400', '401', '402', '403', '409', '422', '429', '500', '503'];

/**
 * The query parameters of an endpoint, from its typed zod schema (contract §6.1: the catalog that
 * drives parsing). Every array is a comma list in this API (contract §6.2): `style: form, explode:
 * false` tells clients to send `level=senior,staff`, never `level=senior&level=staff` (which the
 * service refuses as a repeated parameter).
 */
export function queryParameters(endpoint: Endpoint | z.ZodType) {
  const schema = jsonSchema(typeof endpoint === 'string' ? restQuerySchema(endpoint) : endpoint);
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  return Object.entries(properties).map(([name, prop]) => {
    const { description, ...rest } = prop;
    const list = rest.type === 'array' ? { style: 'form', explode: false } : {};
    return { name, in: 'query', required: false, description, ...list, schema: rest };
  });
}

/** contract §7.6: `fields` as list documents it, for the detail and the change feed too. */
export const fieldsParameter = () => queryParameters('list').filter((p) => p.name === 'fields');

export const requestIdHeader = {
  name: 'X-Request-ID',
  in: 'header',
  required: false,
  description:
    'Unique caller-generated id of this billable request (1 to 128 of A-Za-z0-9._:-), never holding a key-like run (oppk_ followed by a letter or digit, any case, anywhere): such an id is a pasted secret, refused with 422.',
  // The rule of middleware/request-id.ts: the set and length, and no key-like run (any case).
  schema: {
    type: 'string',
    pattern: '^(?!.*[oO][pP][pP][kK]_[A-Za-z0-9])[A-Za-z0-9._:-]{1,128}$',
  },
};

/** The same header on a free request: validated and echoed, never spent (contract §17.1). */
export const correlationIdHeader = {
  ...requestIdHeader,
  description:
    'Caller-generated correlation id (the same rules as on billable requests), echoed in the X-Request-ID header and in meta or error; a free request spends none.',
};

/** What every response echoes, an anonymous one too. */
export const ECHOED_HEADERS = headerRefs(['X-Request-ID']);

// contract §13: free revalidation on list and count.
export const ETAG_HEADER = {
  description:
    'Weak entity tag of this response, blind to meta.request_id: send it back in If-None-Match.',
  ...str,
};
const ifNoneMatch = (onMatch: string) => ({
  name: 'If-None-Match',
  in: 'header',
  required: false,
  description: `Entity tags from earlier ETag headers (a list, or *), compared weakly (RFC 9110). ${onMatch}`,
  schema: { type: 'string' },
});
export const ifNoneMatchHeader = ifNoneMatch(
  'A match answers 304 with no body, the usage and rate-limit headers, and counts against the rate limit; on a list only when every record on the page was already delivered to the account this period, and then it consumes nothing and spends no request id.',
);
/** The taxonomy's: like its 200, its 304 needs no key and counts against no limit (contract §5.6). */
export const publicIfNoneMatchHeader = ifNoneMatch(
  'A match answers 304 with no body and the ETag and Cache-Control of the 200; like the 200, it needs no key and counts against no limit.',
);
export const notModified = (what: string) => ({
  description: `Not modified: If-None-Match matched and ${what}. No body.`,
  headers: { ...AUTH_HEADERS, ETag: ETAG_HEADER },
});

export const ok = (schema: string, headers: Record<string, unknown>) => ({
  description: 'OK',
  headers,
  content: { 'application/json': { schema: ref(schema) } },
});
