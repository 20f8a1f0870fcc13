import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import { ApiError, invalidFilter, quotedLine, validationError } from '../domain/errors';

// contract §20.4: a request /mcp refuses at the HTTP level gets a documented status and the error
// envelope, like every other request that reached the app. The SDK transport answers its own
// refusals (406 bad Accept, 415 bad Content-Type, 400 for a body that is no JSON-RPC message or an
// unsupported MCP-Protocol-Version) as JSON-RPC error objects; this maps each to the ApiError the
// app's error handler renders, keeping the transport's 400 where the MCP transport specification
// requires one (an unsupported MCP-Protocol-Version, contract §21.4.3). JSON-RPC errors stay where JSON-RPC puts
// them: inside a 200 reply to a well-formed message (unknown method, bad params).

/** What the transport answered: its HTTP status and the JSON-RPC error of its body, if any. */
export interface TransportRefusal {
  status: number;
  rpcCode?: number;
  /** The SDK adds `data` only when it caught an exception of its own: a server bug, not the caller's. */
  hasData: boolean;
  /** The JSON-RPC error's message: the SDK's words about the request (2026-07-28 checks). */
  message?: string;
}

/**
 * The SDK's message, on one line and bounded: it may quote what the client sent (a method, a
 * tool's name, a resource's URI, a header), so a key in it is hidden (contract §6.14) and a lone
 * surrogate read as U+FFFD (§21.6.5), as in every other message that quotes a caller.
 */
const said = (message: string | undefined) => quotedLine(message ?? '');

export const notAcceptable = () =>
  validationError(
    'Accept',
    'unsupported',
    'Accept must list both application/json and text/event-stream (MCP Streamable HTTP).',
  );

export const unsupportedContentType = () =>
  validationError('Content-Type', 'unsupported', 'Content-Type must be application/json.');

export const notJsonRpc = () =>
  validationError('body', 'bad_format', 'The body must be one JSON-RPC 2.0 message.');

/** A message beyond message-shape.ts's bounds: no client sends one. */
export const tooComplex = (maxNodes: number, maxDepth: number) =>
  validationError(
    'body',
    'out_of_range',
    `The message is too large in structure: at most ${maxNodes} values, nested at most ${maxDepth} deep.`,
  );

/**
 * contract §21.10: protocol revisions since 2025-06-18 have no JSON-RPC batches. A batch is refused
 * whole with HTTP 400, before anything in it runs, so one POST is one message, admitted against
 * the rate limit on its own.
 */
export const refuseBatch = () =>
  invalidFilter(
    'body',
    'unsupported',
    'JSON-RPC batches are not accepted (MCP revisions since 2025-06-18 have none): send one message per POST.',
  );

/**
 * contract §21.4.3 and the MCP transport specification: an MCP-Protocol-Version the server does not
 * speak is HTTP 400 (400 with the envelope, as an unknown value of a parameter is).
 */
export const unsupportedProtocolVersion = () =>
  invalidFilter(
    'MCP-Protocol-Version',
    'unknown_value',
    `Unsupported MCP-Protocol-Version; this server speaks ${SPOKEN_REVISIONS.join(', ')}.`,
  );

/**
 * A method the 2026-07-28 leg does not have: the SDK answers HTTP 404 with JSON-RPC's
 * MethodNotFound (-32601), which a client of that revision reads as the answer to its request.
 * Kept as JSON-RPC, as the 2025-era leg answers an unknown method (in a 200), with the SDK's words,
 * except that `initialize`, which 2026-07-28 dropped, says what to send instead. Null for any
 * other reply.
 */
export function methodNotFound(
  status: number,
  text: string,
  body: unknown,
): { status: number; contentType: string; text: string } | null {
  if (status !== 404) return null;
  let reply: { id?: unknown; error?: { code?: unknown; message?: unknown } };
  try {
    reply = JSON.parse(text) as typeof reply;
  } catch {
    return null;
  }
  if (reply.error?.code !== -32601) return null;
  const { id, method } = body as { id?: unknown; method?: unknown };
  const message =
    method === 'initialize'
      ? '2026-07-28 has no initialize: send server/discover, or omit the revision to initialize.'
      : said(typeof reply.error.message === 'string' ? reply.error.message : 'Method not found');
  return {
    status,
    contentType: 'application/json',
    text: JSON.stringify({
      jsonrpc: '2.0',
      id: reply.id ?? id ?? null,
      error: { code: -32601, message },
    }),
  };
}

/** The JSON-RPC error code of MCP's UnsupportedProtocolVersion (2026-07-28). */
const UNSUPPORTED_PROTOCOL_VERSION = -32022;

/**
 * contract §21.4.4: the one refusal answered in JSON-RPC rather than with the envelope. A client
 * that negotiates (the 2.x SDK's `auto` mode) probes with `server/discover` under the newest
 * revision it knows; only an UnsupportedProtocolVersion error (-32022) listing the revisions spoken
 * here lets it retry with the newest both speak. Given the envelope instead, it falls back to the
 * 2025-era initialize, so a client newer than this server would never reach 2026-07-28. The HTTP
 * status stays the transport specification's 400. Null for any other message: the envelope.
 */
export function versionProbeRefusal(
  body: unknown,
  requested: string | undefined,
): { jsonrpc: '2.0'; id: string | number; error: object } | null {
  if (typeof body !== 'object' || body === null) return null;
  const { id, method } = body as { id?: unknown; method?: unknown };
  if (method !== 'server/discover') return null;
  if (typeof id !== 'string' && typeof id !== 'number') return null;
  return {
    jsonrpc: '2.0',
    id,
    error: {
      code: UNSUPPORTED_PROTOCOL_VERSION,
      message: `Unsupported MCP-Protocol-Version ${said(requested)}; this server speaks ${SPOKEN_REVISIONS.join(', ')}.`,
      data: {
        supported: [...SPOKEN_REVISIONS],
        ...(requested === undefined ? {} : { requested: said(requested) }),
      },
    },
  };
}

/** The revision a 2026-07-28 message's `_meta` envelope names, if it names one. */
function envelopeRevision(body: unknown): string | undefined {
  const meta = (body as { params?: { _meta?: Record<string, unknown> } }).params?._meta;
  const named = meta?.['io.modelcontextprotocol/protocolVersion'];
  return typeof named === 'string' ? named : undefined;
}

/**
 * The SDK's -32022 for a `server/discover` whose revision only its body's envelope names (no
 * MCP-Protocol-Version header for http.ts to check first): the probe refusal of contract §21.4.4,
 * so a client that sends no header negotiates as one that does. Null for any other reply.
 */
export function envelopeProbeRefusal(
  status: number,
  text: string,
  body: unknown,
): ReturnType<typeof versionProbeRefusal> {
  if (status !== 400) return null;
  let code: unknown;
  try {
    code = (JSON.parse(text) as { error?: { code?: unknown } }).error?.code;
  } catch {
    return null;
  }
  if (code !== UNSUPPORTED_PROTOCOL_VERSION) return null;
  const named = envelopeRevision(body);
  // A revision this server advertises (a 2025-era one, which has no server/discover) is no probe
  // of a newer client: "unsupported" would contradict the list of revisions given with it. Older
  // ones, served through initialize but not advertised, are refused as unsupported as before.
  if (named !== undefined && isSpoken(named)) return null;
  return versionProbeRefusal(body, named);
}

/**
 * A `server/discover` under a 2025-era revision this server speaks, which has no such method:
 * said as it is (the transport's -32022 read "unsupported" of a revision the server names as
 * spoken). Null for any other message.
 */
export function discoverUnderEraRevision(body: unknown): ApiError | null {
  if ((body as { method?: unknown }).method !== 'server/discover') return null;
  const named = envelopeRevision(body);
  if (named === undefined || named === SPOKEN_REVISIONS[0] || !isSpoken(named)) return null;
  return invalidFilter(
    'body',
    'unsupported',
    `server/discover is a ${SPOKEN_REVISIONS[0]} request: send it under ${SPOKEN_REVISIONS[0]}, or open a ${said(named)} session with initialize.`,
  );
}

/** The revisions of contract §21.4, newest first. */
export const SPOKEN_REVISIONS = ['2026-07-28', '2025-11-25', '2025-06-18'] as const;

const isSpoken = (revision: string) => (SPOKEN_REVISIONS as readonly string[]).includes(revision);

/**
 * Every revision the endpoint serves: those of contract §21.4 and the older ones the SDK still
 * negotiates through initialize (2025-03-26, 2024-11-05, 2024-10-07), which clients of the 1.x
 * SDK may send. Served, not advertised: refusals list SPOKEN_REVISIONS (docs/agents.md).
 */
const SERVED_REVISIONS: ReadonlySet<string> = new Set([
  ...SPOKEN_REVISIONS,
  ...SUPPORTED_PROTOCOL_VERSIONS,
]);

/** contract §21.4.3: a present MCP-Protocol-Version header must name a revision this server speaks. */
export function speaksProtocolVersion(header: string | undefined): boolean {
  return header === undefined || SERVED_REVISIONS.has(header);
}

/** The 2026-07-28 standard request headers, as the transport specification spells them. */
const STANDARD_HEADERS = ['MCP-Protocol-Version', 'Mcp-Method', 'Mcp-Name'] as const;

/**
 * Which standard header a 2026-07-28 header/body disagreement (-32020) is about, from the SDK's
 * words ("the required Mcp-Method header is absent", "the Mcp-Name header names ..."): the
 * header, missing or of a bad value; `body` when the words name none.
 */
function headerAtFault(message: string): {
  header: string;
  reason: 'missing' | 'bad_format';
} {
  const named = STANDARD_HEADERS.find((h) => message.includes(` ${h} header`));
  if (!named) return { header: 'body', reason: 'bad_format' };
  return {
    header: named,
    reason: message.includes(`required ${named} header is absent`) ? 'missing' : 'bad_format',
  };
}

/** The ApiError for a transport refusal, or null when the transport failed on its own (a 500). */
export function fromTransportRefusal(refusal: TransportRefusal): ApiError | null {
  switch (refusal.status) {
    case 406:
      return notAcceptable();
    case 415:
      return unsupportedContentType();
    case 413:
      return new ApiError('payload_too_large', 'The request body is too large.');
    case 400:
      // -32000 on a stateless 2025-era POST is only the protocol version check; -32022 is the
      // 2026-07-28 leg's UnsupportedProtocolVersion (http.ts checks the header first; this is
      // what a revision claimed only in the body's envelope gets).
      if (refusal.rpcCode === -32000 || refusal.rpcCode === -32022) {
        return unsupportedProtocolVersion();
      }
      // An exception the SDK caught (-32603 with data) is a server bug, not the caller's.
      if (refusal.hasData && refusal.rpcCode === -32603) return null;
      // 2026-07-28: the standard headers (MCP-Protocol-Version, Mcp-Method, Mcp-Name) disagree
      // with the body; the transport specification answers 400.
      if (refusal.rpcCode === -32020) {
        const { header, reason } = headerAtFault(refusal.message ?? '');
        return invalidFilter(
          header,
          reason,
          `MCP headers and body disagree: ${said(refusal.message)}`,
        );
      }
      // 2026-07-28: the per-request envelope is missing or malformed.
      if (refusal.rpcCode === -32602) {
        return validationError(
          'body',
          'bad_format',
          `Invalid MCP request: ${said(refusal.message)}`,
        );
      }
      return notJsonRpc();
    default:
      return null;
  }
}
