import type { IncomingMessage } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { ApiError } from '../domain/errors';
import { callerOf } from '../http/caller';
import type { Authenticator } from '../http/middleware/authenticate';
import type { AuthContext } from '../service/auth';
import type { AppDeps } from '../service/context';
import type { Caller, ReadService } from '../service/read-service';
import { checkOrigin } from './origin';
import { createMcpServer, type RequestScope } from './server';
import { createTools } from './tools';
import { taxonomyDocument } from '../service/taxonomy-service';

// The tool-protocol endpoint (contract 4.6, decisions 9): stateless Streamable HTTP with JSON
// responses, so any instance can serve any request. Mounted by the app at /mcp.

const BODY_LIMIT = '1mb';

/** No OAuth flow (contract 4.6), so no resource_metadata: only the scheme and, if bad, why. */
const CHALLENGE: Partial<Record<ApiError['code'], string>> = {
  missing_api_key: 'Bearer realm="mcp"',
  invalid_api_key: 'Bearer realm="mcp", error="invalid_token"',
  revoked_api_key: 'Bearer realm="mcp", error="invalid_token"',
};

/** The transport's own error shape, so a client sees one format for every protocol-level refusal. */
function jsonRpcError(res: Response, status: number, code: number, message: string): void {
  res.status(status).json({ jsonrpc: '2.0', error: { code, message }, id: null });
}

export function mcpRoutes(deps: AppDeps, auth: Authenticator, reads: ReadService): Router {
  const router = Router();
  const tools = createTools(deps, reads);
  const taxonomy = taxonomyDocument(deps.taxonomy).body;
  const authenticated = new WeakMap<Request, AuthContext>();
  const parseJson = express.json({ limit: BODY_LIMIT });

  // decisions 8: responses to authenticated requests are never cached, errors included.
  router.use((_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  router.use(checkOrigin(deps.env.MCP_ALLOWED_ORIGINS));

  /**
   * Authentication before the protocol (decisions 9): a missing, unknown or revoked key is HTTP
   * 401 with the error envelope, written by the app's error handler like every REST error; the
   * same Authenticator as REST, so one key cache and one failure throttle.
   */
  const authenticate = (req: Request, res: Response, next: NextFunction): void => {
    auth.authenticate(req.headers, req.ip, { allowBearer: true }).then(
      (context) => {
        authenticated.set(req, context);
        next();
      },
      (err: unknown) => {
        const challenge = err instanceof ApiError ? CHALLENGE[err.code] : undefined;
        if (challenge) res.setHeader('WWW-Authenticate', challenge);
        if (err instanceof ApiError) reads.addAccountHeaders(err).then(() => next(err), next);
        else next(err);
      },
    );
  };

  /** Parsed here, after authentication, so an anonymous caller's body is never read. */
  const body = (req: Request, res: Response, next: NextFunction): void => {
    parseJson(req, res, (err?: unknown) => {
      if (err === undefined) return next();
      // What the SDK transport answers when it parses the body itself.
      const type = typeof err === 'object' && err !== null && 'type' in err ? err.type : undefined;
      if (type === 'entity.too.large') {
        return jsonRpcError(res, 413, -32000, `Request body exceeds ${BODY_LIMIT}.`);
      }
      return jsonRpcError(res, 400, -32700, 'Parse error: Invalid JSON');
    });
  };

  router.post('/', authenticate, body, async (req, res) => {
    const context = authenticated.get(req);
    if (!context) throw new Error('mcp: request reached the handler unauthenticated');
    const caller = callerOf(req, context, deps.env);
    // Every POST passes the loose protocol limit first, without Postgres (decisions 8); a tool
    // call that reads is then limited and metered by the ReadService and sets its own headers.
    res.set(await reads.admitProtocolMessage(caller));
    const server = createMcpServer(tools, requestScope(caller, res, deps), taxonomy);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    res.on('close', () => {
      void transport.close().catch(() => undefined);
      void server.close().catch(() => undefined);
    });
    try {
      await server.connect(transport);
      // express.Request widened to the IncomingMessage the transport reads; req.auth is not set on
      // this route, so the transport forwards no auth info of ours.
      const incoming: IncomingMessage = req;
      await transport.handleRequest(incoming, res, req.body);
    } catch (err) {
      deps.logger.error('mcp transport error', {
        request_id: req.requestId,
        error: err instanceof Error ? (err.stack ?? err.message) : String(err),
      });
      if (!res.headersSent) jsonRpcError(res, 500, -32603, 'Internal server error');
    }
  });

  // A stateless server offers no GET stream and no session to DELETE: 405, as in the SDK's
  // stateless example, whatever the credentials.
  router.all('/', (_req, res) => {
    res.setHeader('Allow', 'POST');
    jsonRpcError(res, 405, -32000, 'Method not allowed.');
  });

  return router;
}

/**
 * Each POST is one request with one X-Request-ID (the app's requestId middleware validated or
 * generated it). Its first billable tool call spends it through the ReadService; a later billable
 * call in the same JSON-RPC batch is refused with duplicate_request_id (server.ts), which is what
 * a second REST request with the same id gets. Headers: the billable call's win over a free
 * call's, since they carry the delivery counts; they are set before the transport writes the JSON
 * response, which happens only once every call of the request has answered.
 */
function requestScope(caller: Caller, res: Response, deps: AppDeps): RequestScope {
  let claimed = false;
  let billableHeadersSet = false;
  return {
    caller,
    logger: deps.logger,
    claimRequestId() {
      if (claimed) return false;
      claimed = true;
      return true;
    },
    setHeaders(headers, billable) {
      if (res.headersSent || (!billable && billableHeadersSet)) return;
      if (billable) billableHeadersSet = true;
      res.set(headers);
    },
  };
}
