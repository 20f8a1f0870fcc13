import { ApiError, validationError } from '../domain/errors';

// decisions 8: a request /mcp refuses at the HTTP level gets a documented status and the error
// envelope, like every other request that reached the app. The SDK transport answers its own
// refusals (406 bad Accept, 415 bad Content-Type, 400 for a body that is no JSON-RPC message or an
// unsupported MCP-Protocol-Version) as JSON-RPC error objects with undocumented statuses; this maps
// each to the ApiError the app's error handler renders. JSON-RPC errors stay where JSON-RPC puts
// them: inside a 200 reply to a well-formed message (unknown method, bad params).

/** What the transport answered: its HTTP status and the JSON-RPC error of its body, if any. */
export interface TransportRefusal {
  status: number;
  rpcCode?: number;
  /** The SDK adds `data` only when it caught an exception of its own: a server bug, not the caller's. */
  hasData: boolean;
}

export const notAcceptable = () =>
  validationError(
    'Accept',
    'unsupported',
    'Accept must list both application/json and text/event-stream (MCP Streamable HTTP).',
  );

export const unsupportedContentType = () =>
  validationError('Content-Type', 'unsupported', 'Content-Type must be application/json.');

export const notJsonRpc = () =>
  validationError(
    'body',
    'bad_format',
    'The body must be one JSON-RPC 2.0 message or a batch of at most 100 (an initialize request alone).',
  );

export const duplicateRequestIds = () =>
  validationError('body', 'repeated', 'The requests of a JSON-RPC batch need distinct ids.');

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
      if (refusal.hasData) return null;
      // -32000 on a stateless POST is only the protocol version check.
      if (refusal.rpcCode === -32000) {
        return validationError(
          'MCP-Protocol-Version',
          'unknown_value',
          'Unsupported MCP-Protocol-Version; send one this server lists in initialize, or none.',
        );
      }
      return notJsonRpc();
    default:
      return null;
  }
}

/**
 * Requests of one batch that share an id. The transport keys replies by id and, in JSON response
 * mode, answers once every id has a reply, so the first of two same-id calls to finish would end
 * the HTTP response while the other still runs: a search could deliver and charge after the
 * client was answered (found by the fuzz suite). Such a batch is refused before anything runs.
 */
export function hasDuplicateRequestIds(body: unknown): boolean {
  if (!Array.isArray(body)) return false;
  const seen = new Set<unknown>();
  for (const message of body) {
    if (typeof message !== 'object' || message === null || !('method' in message)) continue;
    if (!('id' in message)) continue;
    const { id } = message as { id: unknown };
    if (seen.has(id)) return true;
    seen.add(id);
  }
  return false;
}
