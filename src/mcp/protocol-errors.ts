import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../infra/logger';

// decisions 8 and 9 inside JSON-RPC: the SDK parses a request's params against its schema before
// any handler runs (its own initialize handler included) and answers a mismatch as -32603
// Internal error whose message is the zod issue list, so a client's malformed params looked like a
// server fault and showed the validator's internals. Found by the fuzz suite (issue 11).

type Handler = (request: unknown, extra: unknown) => Promise<unknown>;

interface Issue {
  path?: PropertyKey[];
  message?: string;
}

const isZodError = (err: unknown): err is { issues: Issue[] } =>
  err instanceof Error &&
  (err.name === 'ZodError' || err.name === '$ZodError') &&
  Array.isArray((err as { issues?: unknown }).issues);

/** `params.uri: expected string, received array`, for at most three issues, on one line. */
function summary(issues: Issue[]): string {
  return issues
    .slice(0, 3)
    .map((i) => {
      const path = (i.path ?? []).map(String).join('.') || 'params';
      const message = (i.message ?? 'invalid').replace(/^Invalid input: /, '');
      return `${path}: ${message}`.replace(/[\r\n{}[\]]/g, ' ');
    })
    .join('; ');
}

/**
 * Wraps every request handler of `server` (call it once all are registered): a params mismatch
 * becomes -32602 Invalid params with a one-line message; any other failure that is not already a
 * protocol error is logged and answered -32603 without its message. McpErrors pass unchanged.
 */
export function guardRequestHandlers(server: Server, logger: Logger, requestId: string): void {
  // The handler table is private to the SDK's Protocol class: fail loudly if it ever moves.
  const handlers = (server as unknown as { _requestHandlers?: unknown })._requestHandlers;
  if (!(handlers instanceof Map)) throw new Error('MCP SDK: request handler table not found');
  const table = handlers as Map<string, Handler>;
  for (const [method, handler] of table) {
    table.set(method, async (request, extra) => {
      try {
        return await handler(request, extra);
      } catch (err) {
        if (err instanceof McpError) throw err;
        if (isZodError(err)) {
          throw new McpError(
            ErrorCode.InvalidParams,
            `Invalid params for ${method}: ${summary(err.issues)}`,
          );
        }
        logger.error('mcp request handler failed', {
          request_id: requestId,
          method,
          error: err instanceof Error ? (err.stack ?? err.message) : String(err),
        });
        throw new McpError(ErrorCode.InternalError, 'Internal error');
      }
    });
  }
}
