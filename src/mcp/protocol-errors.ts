import { ProtocolError, ProtocolErrorCode, type Server } from '@modelcontextprotocol/server';
import { quoteValue, quotedLine, shownName } from '../domain/errors';
import type { Logger } from '../infra/logger';

// contract §20.4, §21.6 inside JSON-RPC: the SDK parses a request's params against its schema before
// any handler runs (its own initialize handler included) and answers a mismatch as -32603
// Internal error (or, for tools/call, -32602) whose message is the zod issue list, so a client's
// malformed params looked like a server fault and showed the validator's internals. Found by the
// fuzz suite.

type Handler = (request: unknown, extra: unknown) => Promise<unknown>;

interface Issue {
  path?: PropertyKey[];
  message?: string;
}

const isZodError = (err: unknown): err is { issues: Issue[] } =>
  err instanceof Error &&
  (err.name === 'ZodError' || err.name === '$ZodError') &&
  Array.isArray((err as { issues?: unknown }).issues);

/**
 * The SDK (2.x) reports a params mismatch as an error whose message is the zod issue list in JSON,
 * optionally after a prefix (`Invalid tools/call request: [...]`): a ProtocolError -32602 for
 * tools/call, a plain Error for the other methods. The issues, or null for any other error.
 */
function issuesOf(err: unknown): Issue[] | null {
  if (isZodError(err)) return err.issues;
  if (!(err instanceof Error)) return null;
  const json = /^(?:Invalid [^:\n]{1,80}: )?(\[[\s\S]*\])$/.exec(err.message)?.[1];
  if (json === undefined) return null;
  try {
    const parsed: unknown = JSON.parse(json);
    const isIssue = (i: unknown) =>
      typeof i === 'object' && i !== null && 'message' in i && 'path' in i;
    return Array.isArray(parsed) && parsed.length > 0 && parsed.every(isIssue)
      ? (parsed as Issue[])
      : null;
  } catch {
    return null;
  }
}

/**
 * `params.uri: expected string, received array`, for at most three issues, on one line. A path
 * can hold names the client chose (`capabilities.experimental.<name>`): each is shown as any
 * caller's name is (a key hidden, a lone surrogate U+FFFD, cut at 64), and the line is bounded.
 */
function summary(issues: Issue[]): string {
  const line = issues
    .slice(0, 3)
    .map((i) => {
      const path = (i.path ?? []).map((p) => shownName(String(p))).join('.') || 'params';
      const message = (i.message ?? 'invalid').replace(/^Invalid input: /, '');
      return `${path}: ${message.replace(/[{}[\]]/g, ' ')}`;
    })
    .join('; ');
  return quotedLine(line, 600);
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
        const issues = issuesOf(err);
        if (issues) {
          throw new ProtocolError(
            ProtocolErrorCode.InvalidParams,
            `Invalid params for ${method}: ${summary(issues)}`,
          );
        }
        if (err instanceof ProtocolError) throw err;
        logger.error('mcp request handler failed', {
          request_id: requestId,
          method,
          error: err instanceof Error ? (err.stack ?? err.message) : String(err),
        });
        throw new ProtocolError(ProtocolErrorCode.InternalError, 'Internal error');
      }
    });
  }
}

/**
 * A tool or resource the server does not have: -32602 naming it as REST names an unknown parameter
 * (contract §6.3): cut at 64 characters and JSON-quoted, so a name the client sent cannot make the
 * one-line message long, put control characters into it, or repeat a key.
 */
export function unknownName(kind: 'tool' | 'resource', name: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown ${kind}: ${quoteValue(name)}`);
}

/**
 * The lists this server answers (tools, resources, resource templates) are one page each, so no
 * cursor continues them: one a client sends is invalid, and MCP's pagination asks for -32602
 * rather than the first page again (a client looping on a cursor it made up would never learn).
 */
export function refuseCursor(params: { cursor?: unknown } | undefined): void {
  if (params?.cursor === undefined) return;
  throw new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    'Invalid cursor: this list has one page, and no cursor continues it.',
  );
}
