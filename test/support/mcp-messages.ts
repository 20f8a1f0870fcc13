// Messages as a raw client sends them (tests that post JSON-RPC by hand rather than through an
// SDK client, test/support/mcp-clients.ts): the 2025-era handshake and a tool call.

export function initializeMessage(clientName = 'x', id: number | string = 1) {
  return {
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: clientName, version: '1' },
    },
  };
}

/**
 * A JSON-RPC tools/call POSTed to the stateless /mcp endpoint with a Bearer key: the raw reply.
 * `headers` adds to the request's (a protocol version, say).
 */
export function postToolCall(
  baseUrl: string,
  key: string,
  name: string,
  args: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${baseUrl}/mcp`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${key}`,
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name, arguments: args },
    }),
  });
}
