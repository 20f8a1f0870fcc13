import {
  isInitializeRequest,
  parseJSONRPCMessage,
  type JSONRPCMessage,
  type Server,
  type Transport,
} from '@modelcontextprotocol/server';
import { notAcceptable, notJsonRpc, unsupportedProtocolVersion } from './transport-refusals';

// A 2025-era POST served without the web-standard transport (MCP CPU per call, docs/benchmarks.md).
// The SDK's WebStandardStreamableHTTPServerTransport takes a web Request and hands back a web
// Response, so each call built a Request and Headers from the Node request, then read the
// Response's body back through undici (string conversion, a web stream) to write it out. The SDK
// has no Node transport in this package, and a stateless POST with JSON responses needs little of
// one: this is that transport for one exchange, the same Server (server.ts) still parsing,
// validating, dispatching and framing the message (its errors, its ids, initialize).
//
// What the web-standard transport checked before the Server saw a POST, in its order, is checked
// here with the same outcome as refusalOf(transport-refusals.ts) made of its answers:
// - Accept must list application/json and text/event-stream: 406 → notAcceptable();
// - the body must be one JSON-RPC message (its zod schema, the SDK's parseJSONRPCMessage): 400;
// - an MCP-Protocol-Version header outside the Server's revisions (initialize exempt): 400.
// Content-Type, batches and revisions no Server speaks are refused earlier (http.ts).

/** What the exchange answers: the JSON-RPC response, or nothing (202) for a notification. */
export type ExchangeReply = { status: 200; message: JSONRPCMessage } | { status: 202 };

interface Inbound {
  accept: string | undefined;
  protocolVersion: string | undefined;
  body: unknown;
}

/** Accept lists both media types of Streamable HTTP, as the SDK transport requires. */
function acceptsStreamableHttp(accept: string | undefined): boolean {
  return (
    accept !== undefined &&
    accept.includes('application/json') &&
    accept.includes('text/event-stream')
  );
}

/**
 * The single-exchange transport: `serve` hands the Server its one message and resolves with the
 * response to it. Nothing else is ever written: a stateless POST with JSON responses has no stream
 * for server-initiated messages (the web-standard transport dropped them too).
 */
class ExchangeTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private supported: readonly string[] = [];
  private awaited: { id: unknown; settle: (message: JSONRPCMessage | null) => void } | null = null;
  private closed = false;

  async start(): Promise<void> {}

  /** Called by Server.connect: the revisions the Server speaks, for the header check. */
  setSupportedProtocolVersions(versions: string[]): void {
    this.supported = versions;
  }

  speaks(version: string): boolean {
    return this.supported.includes(version);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    // The Server's answer to the request: a response carries the request's id and a result or an
    // error. Anything else (a notification, a request to the client) has nowhere to go.
    const awaited = this.awaited;
    if (!awaited || !('id' in message) || message.id !== awaited.id) return;
    if (!('result' in message) && !('error' in message)) return;
    this.awaited = null;
    awaited.settle(message);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // A request whose connection closed first is answered by nobody: its exchange ends empty.
    this.awaited?.settle(null);
    this.awaited = null;
    this.onclose?.();
  }

  /** The response to `message` (a request), or null when the exchange closed before it. */
  request(message: JSONRPCMessage & { id: unknown }): Promise<JSONRPCMessage | null> {
    return new Promise((settle) => {
      this.awaited = { id: message.id, settle };
      this.onmessage?.(message);
    });
  }

  notify(message: JSONRPCMessage): void {
    this.onmessage?.(message);
  }
}

/**
 * Serves one 2025-era POST on `server` (a fresh one per request, server.ts) and closes it once
 * answered. Throws the ApiError of a refusal; resolves null when `closed` closed it first.
 */
export async function serveExchange(
  server: Server,
  inbound: Inbound,
  onClose: (close: () => void) => void,
): Promise<ExchangeReply | null> {
  if (!acceptsStreamableHttp(inbound.accept)) throw notAcceptable();
  let message: JSONRPCMessage;
  try {
    message = parseJSONRPCMessage(inbound.body);
  } catch {
    throw notJsonRpc();
  }
  const transport = new ExchangeTransport();
  await server.connect(transport);
  // A connection that ends first aborts the Server's handler (its request signal), as it did.
  onClose(() => void server.close().catch(() => undefined));
  const initializing = isInitializeRequest(message);
  const version = inbound.protocolVersion;
  if (!initializing && version !== undefined && !transport.speaks(version)) {
    throw unsupportedProtocolVersion();
  }
  if (!('method' in message) || !('id' in message)) {
    // A notification (or a response from the client): handed over, answered 202 without a body.
    transport.notify(message);
    return { status: 202 };
  }
  const response = await transport.request(message);
  return response === null ? null : { status: 200, message: response };
}
