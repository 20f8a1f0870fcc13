// The 2025-era handshake as a raw client sends it (tests that post JSON-RPC by hand rather than
// through an SDK client, test/support/mcp-clients.ts).

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
