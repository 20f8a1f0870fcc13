import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import { ApiError, invalidFilter, validationError } from '../domain/errors';

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

/** The SDK's message, on one line and bounded: it may quote a method name the client sent. */
const said = (message: string | undefined) =>
  [...(message ?? '').slice(0, 200)].map((c) => (c < ' ' || c === '\u007f' ? ' ' : c)).join('');

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

/** The revisions of contract §21.4, newest first. */
export const SPOKEN_REVISIONS = ['2026-07-28', '2025-11-25', '2025-06-18'] as const;

/**
 * Every revision the endpoint serves: those of contract §21.4 and the older 2025-era ones the SDK
 * still negotiates through initialize (2025-03-26, 2024-11-05), which clients of the 1.x SDK
 * may send.
 */
const SERVED_REVISIONS: ReadonlySet<string> = new Set([
  ...SPOKEN_REVISIONS,
  ...SUPPORTED_PROTOCOL_VERSIONS,
]);

/** contract §21.4.3: a present MCP-Protocol-Version header must name a revision this server speaks. */
export function speaksProtocolVersion(header: string | undefined): boolean {
  return header === undefined || SERVED_REVISIONS.has(header);
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
    case 404:
      // The 2026-07-28 leg answers a method that revision does not have (initialize) with 404.
      if (refusal.rpcCode === -32601) {
        return new ApiError(
          'not_found',
          'This MCP method does not exist in the protocol revision the request claims (2026-07-28 has no initialize: use server/discover, or omit the revision to initialize).',
        );
      }
      return null;
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
        return invalidFilter(
          'body',
          'bad_format',
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
