import type { ServerParts } from './server';

// contract §21.10: every MCP request (tools/list, resources/*, server/discover, get_occupation_taxonomy,
// get_usage...) counts against the account's request rate limit like any REST call. Which
// limiter sees a POST is decided here, from its one message (batches are refused before this):
// - a tool call the ReadService serves (search, get, count, usage) is limited there, once, like
//   its REST twin, so it is not counted here as well;
// - every other request counts here, before any work;
// - the 2025-era handshake (initialize) and notifications pass the looser protocol limit only, so
//   connecting does not spend a read (a client of any revision connects with one request).

/** True when the POST's message counts against the read rate limit at admission. */
export function countedMessage(body: unknown, parts: ServerParts): boolean {
  if (typeof body !== 'object' || body === null) return false;
  const message = body as { id?: unknown; method?: unknown; params?: unknown };
  if (typeof message.method !== 'string' || !('id' in message)) return false;
  if (message.method === 'initialize') return false;
  if (message.method !== 'tools/call') return true;
  const name = (message.params as { name?: unknown } | undefined)?.name;
  const tool = typeof name === 'string' ? parts.byName.get(name) : undefined;
  return tool === undefined || !tool.limitedByService;
}
