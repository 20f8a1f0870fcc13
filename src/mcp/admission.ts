import type { ServerParts } from './server';

// contract §21.10: every MCP request (tools/list, resources/*, server/discover, get_occupation_taxonomy,
// get_usage...) counts against the account's request rate limit like any REST call. Which
// limiter sees a POST is decided here, from its one message (batches are refused before this):
// - 'service': a tool call the ReadService serves (search, get, count, usage) is limited there,
//   once, like its REST twin, and takes its rate-limit and usage headers from there: nothing is
//   counted or read for it at admission. One that never reaches the ReadService (params the SDK
//   refuses, an argument the tool refuses first, a refusal of the transport) is admitted as a
//   protocol message once it is answered, before its reply is written (http.ts);
// - 'read': every other request counts against the read rate limit, before any work;
// - 'protocol': the 2025-era handshake (initialize) and notifications pass the looser protocol
//   limit only, so connecting does not spend a read (a client of any revision connects with one
//   request). A body that is no message at all is a read refused, not a protocol message.
// Admitting a search call at the door as well cost two Redis round trips per call (the protocol
// counter and a read of the read window), a fifth of the MCP call's CPU (docs/benchmarks.md).

export type Admission = 'service' | 'read' | 'protocol';

export function admissionOf(body: unknown, parts: ServerParts): Admission {
  // What is not a JSON-RPC message at all (`{"foo":1}`, `5`, a request whose method is not a
  // string) is refused by the transport, and counts as a read, as any refused request does: at
  // the looser protocol limit a 2-a-second account got ten times its limit in refusals.
  if (typeof body !== 'object' || body === null) return 'read';
  const message = body as { id?: unknown; method?: unknown; params?: unknown };
  if (typeof message.method !== 'string') return 'read';
  // A notification (a method, no id).
  if (!('id' in message)) return 'protocol';
  if (message.method === 'initialize') return 'protocol';
  if (message.method !== 'tools/call') return 'read';
  const name = (message.params as { name?: unknown } | undefined)?.name;
  const tool = typeof name === 'string' ? parts.byName.get(name) : undefined;
  return tool?.limitedByService === true ? 'service' : 'read';
}
