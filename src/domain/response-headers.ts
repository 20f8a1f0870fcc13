// The headers of an authenticated response (contract §18.1), named once: the meter and the rate
// limiter set them under these names (billing/headers.ts, billing/rate-limit.ts) and the OpenAPI
// document describes them from this table (http/openapi-parts.ts).

const integer = { type: 'integer' } as const;
const int64 = { type: 'integer', format: 'int64' } as const;
const text = { type: 'string' } as const;

export const RESPONSE_HEADERS = {
  'X-Request-ID': { description: 'Caller-supplied or generated request id.', schema: text },
  'X-RateLimit-Limit': { description: 'Effective request limit for the window.', schema: integer },
  'X-RateLimit-Remaining': { description: 'Requests left in the window.', schema: integer },
  'X-RateLimit-Reset': { description: 'Seconds until the window resets.', schema: integer },
  'X-Service-Balance-Millicents': {
    description: 'Remaining prepaid wallet balance.',
    schema: int64,
  },
  'X-Service-Usage-Charge-Millicents': {
    description: 'Prepaid amount charged for this response.',
    schema: int64,
  },
  'X-Service-Prepaid-Opportunity-Credits': {
    description: 'Further opportunities affordable from the prepaid balance.',
    schema: integer,
  },
  'X-Service-Plan': { description: 'Current plan for plan-billed accounts.', schema: text },
  'X-Service-Opportunity-Limit': {
    description: 'Allowance for the current period.',
    schema: integer,
  },
  'X-Service-Opportunity-Used': {
    description: 'Unique opportunities delivered this period.',
    schema: integer,
  },
  'X-Service-Opportunity-Remaining': {
    description: 'Allowance remaining this period.',
    schema: integer,
  },
  'X-Service-New-Opportunity-Count': {
    description: 'New period-scoped exposures in this response.',
    schema: integer,
  },
  'X-Service-Included-New-Opportunity-Count': {
    description: 'New ones charged to included allowance.',
    schema: integer,
  },
  'X-Service-PAYG-New-Opportunity-Count': {
    description: 'New ones charged to prepaid credit.',
    schema: integer,
  },
  'X-Service-Period-End': {
    description: 'Exclusive end of the current period.',
    schema: { type: 'string', format: 'date-time' },
  },
  'X-Marketplace-Billing': {
    description: 'Opportunities=N; only for a verified marketplace-proxy request.',
    schema: text,
  },
} as const;

export type ResponseHeader = keyof typeof RESPONSE_HEADERS;

/** Header values keyed by the names of the table (a misspelt name does not compile). */
export type ResponseHeaderValues<K extends ResponseHeader = ResponseHeader> = Partial<
  Record<K, string>
>;

/**
 * The challenge of a REST 401 (RFC 9110 §11.6.1: a 401 carries one): REST reads the key from the
 * X-API-Key header only (contract §14.1), so the challenge names it. /mcp answers Bearer challenges.
 */
export const REST_CHALLENGE = 'APIKey realm="opportunities", header="X-API-Key"';
