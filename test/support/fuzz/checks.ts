import { isDeepStrictEqual } from 'node:util';
import type { RawReply } from '../raw-http';
import { spentBetween, type LedgerSnapshot } from './ledger';
import type { FuzzRequest } from './requests';

// The properties every fuzzed request must keep (contract §4.7, §17, §20, §21). Written
// from the contract and the decisions, not from src/, so the service is held to what it documents.

/** Error codes of contract §20.1, with their statuses. */
const DOCUMENTED: Record<string, number> = {
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
  validation_error: 422,
  request_header_fields_too_large: 431,
  rate_limit_exceeded: 429,
  preview_rate_limit_exceeded: 429,
};

/**
 * Statuses a fuzzed request may get. No 5xx at all: the upstreams are healthy and their deadlines
 * generous in this suite, so a 500 or 503 is a bug (a caller's mistake reported as the server's).
 */
const STATUSES = new Set([
  200, 202, 204, 304, 400, 401, 402, 403, 404, 405, 409, 413, 422, 429, 431,
]);
/** Endpoints that may deliver (a stray path may still reach one: `/v1/opportunities/` is list). */
const BILLABLE = new Set(['list', 'detail', 'changes', 'mcp', 'stray']);

/** What must never reach a client: stack frames, exception names, driver and engine internals. */
const LEAKS = [
  /(^|\\n|\n)\s*at \S+ \(/,
  /\(\S+:\d+:\d+\)/,
  /\.(ts|js|mjs|cjs):\d+:\d+/,
  /node_modules/,
  /\/(src|dist)\/[\w/-]+\.(ts|js)/,
  /\b(TypeError|SyntaxError|RangeError|ReferenceError|URIError|AggregateError)\b/,
  /\b[a-z_]+_exception\b/,
  /\bECONN(REFUSED|RESET)|ETIMEDOUT|EPIPE\b/,
  /duplicate key value|syntax error at or near|violates [a-z ]*constraint|invalid input syntax/,
  /\bJWS\w*(Invalid|Failed)|JOSE\w*Error|ERR_JW[ST]/,
  /Cannot (read|set) propert/,
  /is not a function|is not defined|undefined is not/,
];

export class PropertyViolation extends Error {}

function fail(what: string, req: FuzzRequest, reply: RawReply): never {
  throw new PropertyViolation(
    `${what}\n  request: ${req.method} ${req.target.slice(0, 300)}` +
      `\n  headers: ${JSON.stringify(req.headers.map(([n, v]) => [n, v.slice(0, 120)]))}` +
      `\n  body: ${JSON.stringify(req.body.slice(0, 300))}` +
      `\n  reply: ${reply.status} ${JSON.stringify(reply.headers)}\n  ${reply.body.slice(0, 600)}`,
  );
}

/** Documented status, envelope on errors, nothing internal in any body. */
export function checkReply(req: FuzzRequest, reply: RawReply): void {
  if (!STATUSES.has(reply.status)) fail(`undocumented status ${reply.status}`, req, reply);
  for (const leak of LEAKS) {
    if (leak.test(reply.body)) fail(`the body leaks internals (${leak})`, req, reply);
  }
  // contract §5.10: nothing is ever sniffed into another type, the HTTP server's own refusals included.
  if (reply.headers['x-content-type-options'] !== 'nosniff') fail('no nosniff', req, reply);
  const requestId = reply.headers['x-request-id'];
  // contract §5.10: every response, the HTTP server's own refusals included.
  if (requestId === undefined) fail('an answer without X-Request-ID', req, reply);
  // Refused by Node's HTTP parser before the app (an unparsable request line, headers past the
  // limit): bodiless, untyped, and contract §20.4 asks for the status only there.
  const bodiless = reply.body === '' && reply.headers['content-type'] === undefined;
  if (bodiless && [400, 413, 431].includes(reply.status) && req.method !== 'HEAD') {
    if (reply.headers['cache-control'] !== 'no-store') {
      fail('the HTTP server’s own refusal without Cache-Control: no-store', req, reply);
    }
    return;
  }
  if (reply.status === 202 && !(req.endpoint === 'mcp' && req.method === 'POST')) {
    fail('202 outside /mcp', req, reply);
  }
  if ([402, 409].includes(reply.status) && !BILLABLE.has(req.endpoint)) {
    fail(`${reply.status} on an endpoint that delivers nothing`, req, reply);
  }
  if (reply.status >= 400) checkEnvelope(req, reply, requestId);
  if (req.endpoint === 'mcp' && reply.status === 200) checkMcpReplies(req, reply);
}

function checkEnvelope(req: FuzzRequest, reply: RawReply, requestId: string): void {
  if (req.method === 'HEAD') return;
  if (!/^application\/json\b/.test(reply.headers['content-type'] ?? '')) {
    fail('an error that is not JSON', req, reply);
  }
  let body: unknown;
  try {
    body = JSON.parse(reply.body);
  } catch {
    fail('an error body that does not parse', req, reply);
  }
  const envelope = body as { error?: Record<string, unknown> };
  if (!envelope.error || Object.keys(envelope).join() !== 'error') {
    fail('an error body that is not { error }', req, reply);
  }
  const { code, message, request_id, details, ...rest } = envelope.error;
  if (Object.keys(rest).length)
    fail(`unknown error fields ${Object.keys(rest).join()}`, req, reply);
  if (typeof code !== 'string' || DOCUMENTED[code] !== reply.status) {
    fail(`code ${String(code)} is not documented for status ${reply.status}`, req, reply);
  }
  if (typeof message !== 'string' || message === '') fail('no error message', req, reply);
  if (request_id !== requestId) fail('error.request_id differs from X-Request-ID', req, reply);
  if (reply.status === 400 || reply.status === 422) {
    const d = details as Record<string, unknown> | undefined;
    if (!d || typeof d.parameter !== 'string' || typeof d.reason !== 'string') {
      fail('a 400/422 without details.parameter and details.reason', req, reply);
    }
    if (Object.keys(d).sort().join() !== 'parameter,reason')
      fail('extra details fields', req, reply);
  } else if (details !== undefined) {
    fail(`details on a ${reply.status}`, req, reply);
  }
  if (reply.status === 429 && !/^[1-9]\d*$/.test(reply.headers['retry-after'] ?? '')) {
    fail('a 429 without an integer Retry-After >= 1', req, reply);
  }
  if (reply.status === 405 && !reply.headers.allow) fail('a 405 without Allow', req, reply);
}

/** JSON-RPC replies: no internal error, tool errors as envelopes, text equal to structuredContent. */
function checkMcpReplies(req: FuzzRequest, reply: RawReply): void {
  let parsed: unknown;
  try {
    parsed = JSON.parse(reply.body);
  } catch {
    fail('an /mcp 200 that is not JSON', req, reply);
  }
  for (const item of Array.isArray(parsed) ? parsed : [parsed]) {
    const r = item as {
      jsonrpc?: unknown;
      error?: { code?: unknown };
      result?: { isError?: boolean; structuredContent?: unknown; content?: { text?: string }[] };
    };
    if (r.jsonrpc !== '2.0') fail('a reply that is not JSON-RPC 2.0', req, reply);
    if (r.error) {
      // Invalid request, method not found, invalid params; never an internal error (-32603).
      if (![-32600, -32601, -32602].includes(Number(r.error.code))) {
        fail(`JSON-RPC error ${String(r.error.code)}`, req, reply);
      }
      continue;
    }
    const result = r.result;
    if (!result || result.structuredContent === undefined) continue;
    const text = result.content?.[0]?.text;
    if (text === undefined || !isDeepStrictEqual(JSON.parse(text), result.structuredContent)) {
      fail('a tool result whose text is not its structuredContent', req, reply);
    }
    if (result.isError) {
      const error = (result.structuredContent as { error?: { code?: string } }).error;
      const code = error?.code ?? '';
      if (!(code in DOCUMENTED)) fail(`a tool error with code ${code}`, req, reply);
    }
  }
}

/**
 * The ledger moves exactly as the response says and no further: delivery rows and usage by the
 * X-Service-New-Opportunity-Count it reports, the wallet by its charge, and a refused request
 * changes nothing but, for a billable call that passed the rate limit, its own request id
 * (contract §17.2: such a call spends its id whatever its outcome).
 */
export function checkLedger(
  req: FuzzRequest,
  reply: RawReply,
  before: LedgerSnapshot,
  after: LedgerSnapshot,
): void {
  const delivering = reply.status === 200 && BILLABLE.has(req.endpoint);
  const header = (name: string) => (delivering ? Number(reply.headers[name] ?? 0) : 0);
  const added = header('x-service-new-opportunity-count');
  const charge = header('x-service-usage-charge-millicents');
  if (after.deliveries - before.deliveries !== added || after.used - before.used !== added) {
    fail(
      `deliveries moved by ${after.deliveries - before.deliveries} (used by ${after.used - before.used}), the response says ${added}`,
      req,
      reply,
    );
  }
  if (after.charged - before.charged !== charge || before.balance - after.balance !== charge) {
    fail(
      `the wallet moved by ${before.balance - after.balance}, the response charged ${charge}`,
      req,
      reply,
    );
  }
  if (added === 0 && charge === 0 && !isDeepStrictEqual(before.digests, after.digests)) {
    fail('the ledger changed although nothing was delivered', req, reply);
  }
  const spent = spentBetween(before, after);
  if (spent.length > 1) fail(`${spent.length} request ids spent by one request`, req, reply);
  const served = delivering && req.method === 'GET';
  if (served && ['list', 'detail', 'changes'].includes(req.endpoint) && spent.length !== 1) {
    fail('a served list, detail or feed page spent no request id', req, reply);
  }
  const [one] = spent;
  if (one !== undefined) {
    const mayBeSpent =
      BILLABLE.has(req.endpoint) &&
      ['valid', 'free', 'wallet'].includes(req.key?.kind ?? '') &&
      (req.endpoint === 'mcp' ? reply.status === 200 : ![401, 403, 429].includes(reply.status));
    if (!mayBeSpent) fail(`request id spent (${one}) by a request that spends none`, req, reply);
    if (one.split(' ')[1] !== reply.headers['x-request-id']) {
      fail(`spent ${one}, not the request's own id`, req, reply);
    }
  }
}
