import {
  classifyInboundRequest,
  createMcpHandler,
  isJsonContentType,
} from '@modelcontextprotocol/server';
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { ApiError } from '../domain/errors';
import { checkOnlyParams } from '../domain/filters';
import { callerOf } from '../adapter/caller';
import {
  keyInQuery,
  refusalAfterAuthentication,
  type Authenticator,
} from '../adapter/authenticate';
import type { AuthContext } from '../service/auth';
import type { Settings } from '../service/context';
import type { Caller, ReadService } from '../service/read-service';
import { endWith } from '../infra/reply-buffers';
import { DeferredJson } from './deferred-json';
import { checkOrigin } from './origin';
import { createMcpServer, serverParts, type RequestScope } from './server';
import { createTools } from './tools';
import { taxonomyDocument } from '../service/taxonomy-service';
import {
  discoverUnderEraRevision,
  envelopeProbeRefusal,
  fromTransportRefusal,
  methodNotFound,
  notJsonRpc,
  refuseBatch,
  tooComplex,
  speaksProtocolVersion,
  unsupportedContentType,
  unsupportedProtocolVersion,
  versionProbeRefusal,
} from './transport-refusals';
import { admissionOf } from './admission';
import { serveExchange } from './exchange';
import {
  MAX_MESSAGE_DEPTH,
  MAX_MESSAGE_NODES,
  rawWithinMessageShape,
  withinMessageShape,
} from './message-shape';

/** The raw body's refusal before it is parsed (express.json's verify hook passes it on as is). */
class TooComplexBody extends Error {}

// The tool-protocol endpoint (contract §21): stateless Streamable HTTP with JSON
// responses, so any instance can serve any request. Mounted by the app at /mcp.
//
// Protocol revisions (contract §21.4): a 2025-era message (2025-06-18, 2025-11-25: initialize, then
// requests without the per-request envelope) goes to a single-exchange transport on the Node
// request (exchange.ts); a 2026-07-28 message (the `_meta` envelope, `server/discover`, no
// initialize) goes to the SDK's modern handler. The SDK's classifyInboundRequest routes (it is
// what its isLegacyRequest runs), and both legs are served by the same per-request Server
// (server.ts), so tools, schemas and errors cannot differ.

/** A message's body at most (1 MB, contract §20.4); past it, 413 payload_too_large. */
const BODY_LIMIT_BYTES = 1024 * 1024;

/** No OAuth flow (contract §21.2), so no resource_metadata: only the scheme and, if bad, why. */
const CHALLENGE: Partial<Record<ApiError['code'], string>> = {
  missing_api_key: 'Bearer realm="mcp"',
  invalid_api_key: 'Bearer realm="mcp", error="invalid_token"',
  revoked_api_key: 'Bearer realm="mcp", error="invalid_token"',
};

/** The headers the transport reads; the rest of the request is none of its business. */
const TRANSPORT_HEADERS = [
  'accept',
  'content-type',
  'mcp-protocol-version',
  'mcp-session-id',
  // 2026-07-28 standard request headers, checked against the body by the modern leg.
  'mcp-method',
  'mcp-name',
];

export function mcpRoutes(deps: Settings, auth: Authenticator, reads: ReadService): Router {
  const router = Router();
  const parts = serverParts(
    createTools(deps, reads),
    taxonomyDocument(deps.taxonomy).body,
    deps.env.MCP_MAX_RESULT_BYTES,
  );
  const authenticated = new WeakMap<Request, AuthContext>();
  // The modern leg builds its Server through a factory that sees only the web Request: each
  // request's scope is found by it.
  const scopes = new WeakMap<globalThis.Request, RequestScope>();
  const modern = createMcpHandler(
    ({ requestInfo }) => {
      const scope = requestInfo && scopes.get(requestInfo);
      if (!scope) throw new Error('mcp: modern request without its scope');
      return createMcpServer(parts, scope);
    },
    { legacy: 'reject' },
  );
  // What the SDK transport takes for JSON is parsed; anything else is refused before the body is read.
  const parseJson = express.json({
    limit: BODY_LIMIT_BYTES,
    type: (req) => isJsonContentType(req.headers['content-type']),
    // Before JSON.parse, which a megabyte nested deep holds the event loop with (message-shape.ts).
    verify: (_req, _res, raw) => {
      if (!rawWithinMessageShape(raw)) throw new TooComplexBody();
    },
  });

  // Cache-Control: no-store comes from the app (app/create-app.ts), as on every response.
  router.use(checkOrigin(deps.env));

  /**
   * Authentication before the protocol (contract §21.2): a missing, unknown or revoked key is HTTP
   * 401 with the error envelope, written by the app's error handler like every REST error; the
   * same Authenticator as REST, so one key cache and one failure throttle.
   */
  const authenticate = (req: Request, res: Response, next: NextFunction): void => {
    const authorizations = req.headersDistinct.authorization ?? [];
    const options = {
      allowBearer: true,
      keyInQuery: () => keyInQuery(req.query),
      ...(authorizations.length > 1 ? { authorizations } : {}),
    };
    auth.authenticate(req.headers, req.ip, options).then(
      (context) => {
        authenticated.set(req, context);
        next(refusalAfterAuthentication(req, context));
      },
      (err: unknown) => {
        const challenge = err instanceof ApiError ? CHALLENGE[err.code] : undefined;
        if (challenge) res.setHeader('WWW-Authenticate', challenge);
        next(err);
      },
    );
  };

  /**
   * A refusal of a request whose key is known good counts against the rate limit and carries the
   * rate and usage headers, as every authenticated response does (contract §18.2, §19.1): sent by
   * `send`, or passed to the app's error handler; over the limit it is the 429 instead.
   */
  const refuseCounted = (
    req: Request,
    res: Response,
    next: NextFunction,
    refusal: unknown,
    send?: () => void,
  ): void => {
    const context = authenticated.get(req);
    if (!context) return next(refusal);
    admit(callerOf(req, context, deps.env), res, true).then(
      () => (send ? send() : next(refusal)),
      next,
    );
  };

  /**
   * Counts a POST against the account's rate limit (the read window, or with `counted` false the
   * looser protocol one: admission.ts) and sets its headers; over the limit, throws the 429.
   */
  const admit = async (caller: Caller, res: Response, counted: boolean): Promise<void> => {
    const admitted = await reads.admitProtocolMessage(caller, counted);
    res.set(admitted.headers);
    if (!admitted.ok) throw admitted.error;
  };

  /**
   * Parsed here, after authentication, so an anonymous caller's body is never read. Every refusal
   * goes to the app's error handler: a documented status and the envelope (contract §20.4).
   */
  const body = (req: Request, res: Response, next: NextFunction): void => {
    const refuse = (refusal: unknown, send?: () => void) =>
      refuseCounted(req, res, next, refusal, send);
    // The endpoint takes no query parameters: one there is refused, so a key pasted into the URL
    // (contract §21.2: never in the URL) is noticed, as on REST (contract §6.14).
    try {
      checkOnlyParams(req.query, []);
    } catch (err) {
      return refuse(err);
    }
    if (!isJsonContentType(req.get('content-type'))) return refuse(unsupportedContentType());
    // A body declared past the limit is refused at once: the parser would wait for all of it first
    // (until the request deadline, for one never sent). The connection closes after the answer, so
    // what follows of that body is never read as a request.
    if (Number(req.get('content-length')) > BODY_LIMIT_BYTES) {
      res.setHeader('Connection', 'close');
      return refuse(
        new ApiError(
          'payload_too_large',
          `The request body is too large: at most ${BODY_LIMIT_BYTES} bytes.`,
        ),
      );
    }
    parseJson(req, res, (err?: unknown) => {
      if (err instanceof TooComplexBody) {
        return refuse(tooComplex(MAX_MESSAGE_NODES, MAX_MESSAGE_DEPTH));
      }
      if (err !== undefined) return refuse(err);
      // An empty body leaves nothing parsed: no JSON-RPC message.
      if (req.body === undefined) return refuse(notJsonRpc());
      // contract §21.10: revisions since 2025-06-18 have no JSON-RPC batches; refusing them keeps one
      // message per POST, so each is admitted against the rate limit like a separate call.
      if (Array.isArray(req.body)) return refuse(refuseBatch());
      if (!withinMessageShape(req.body))
        return refuse(tooComplex(MAX_MESSAGE_NODES, MAX_MESSAGE_DEPTH));
      const version = req.get('mcp-protocol-version');
      if (!speaksProtocolVersion(version)) {
        // contract §21.4.4: a negotiating client's probe learns which revisions to retry with.
        const probe = versionProbeRefusal(req.body, version);
        if (probe) return refuse(null, () => res.status(400).json(probe));
        return refuse(unsupportedProtocolVersion());
      }
      next();
    });
  };

  router.post('/', authenticate, body, async (req, res) => {
    const context = authenticated.get(req);
    if (!context) throw new Error('mcp: request reached the handler unauthenticated');
    const caller = callerOf(req, context, deps.env);
    // contract §21.10: every request counts against the account's rate limits before any Postgres
    // work; which limit, and when, is admission.ts's decision.
    const admission = admissionOf(req.body, parts);
    if (admission !== 'service') await admit(caller, res, admission === 'read');
    const deferred = new DeferredJson();
    const scope = requestScope(caller, res, deps, deferred, argumentsOf(req.body));
    let reply: Reply;
    try {
      reply = await serve(req, res, scope);
    } catch (err) {
      // A refusal of the transport: the call never reached the ReadService.
      if (admission === 'service') await admit(caller, res, false);
      throw err;
    }
    if (admission === 'service' && !scope.limitedByService) await admit(caller, res, false);
    if (reply === null) return;
    res.status(reply.status);
    if (reply.contentType) res.setHeader('Content-Type', reply.contentType);
    if (reply.text === undefined) res.end();
    // The same bytes either way: placeholders replaced by the JSON they stand for.
    else endWith(res, deferred.pending ? deferred.fill(reply.text) : reply.text);
  });

  /**
   * One message on a fresh Server (server.ts): a 2025-era one through the single-exchange
   * transport (exchange.ts), a 2026-07-28 one through the SDK's modern handler, which takes a web
   * Request and hands back a Response. The reply as text, or null when the connection closed first.
   */
  const serve = async (req: Request, res: Response, scope: RequestScope): Promise<Reply> => {
    const inbound = {
      httpMethod: 'POST',
      protocolVersionHeader: req.get('mcp-protocol-version'),
      mcpMethodHeader: req.get('mcp-method'),
      mcpNameHeader: req.get('mcp-name'),
      body: req.body as unknown,
    };
    // The SDK's own routing predicate (isLegacyRequest runs exactly this on a parsed body).
    if (classifyInboundRequest(inbound).kind === 'legacy') {
      const exchanged = await serveExchange(
        createMcpServer(parts, scope),
        {
          accept: req.get('accept')?.toLowerCase(),
          protocolVersion: inbound.protocolVersionHeader,
          body: req.body,
        },
        (close) =>
          res.on('close', () => {
            // Once answered, nothing of the Server runs or waits: it goes with the request.
            if (!res.writableFinished) close();
          }),
      );
      if (exchanged === null || exchanged.status === 202) return exchanged;
      // What the SDK transport's Response.json wrote: JSON.stringify of the message.
      return {
        status: 200,
        contentType: 'application/json',
        text: JSON.stringify(exchanged.message),
      };
    }
    const headers = new Headers();
    for (const name of TRANSPORT_HEADERS) {
      const value = req.get(name);
      // Media types are case-insensitive (RFC 9110 §8.3.1); the SDK's Accept check is not.
      if (value !== undefined) headers.set(name, name === 'accept' ? value.toLowerCase() : value);
    }
    const request = new Request('http://mcp.local/mcp', { method: 'POST', headers });
    scopes.set(request, scope);
    const answer = await modern.fetch(request, { parsedBody: req.body });
    if (answer.status >= 400) {
      const text = await answer.text().catch(() => '');
      const unknownMethod = methodNotFound(answer.status, text, req.body);
      if (unknownMethod) return unknownMethod;
      const probe = envelopeProbeRefusal(answer.status, text, req.body);
      if (probe)
        return { status: 400, contentType: 'application/json', text: JSON.stringify(probe) };
      if (answer.status === 400) {
        const misplaced = discoverUnderEraRevision(req.body);
        if (misplaced) throw misplaced;
      }
      throw refusalOf(answer.status, text);
    }
    const contentType = answer.headers.get('content-type') ?? undefined;
    if (!answer.body) return { status: answer.status, contentType };
    return { status: answer.status, contentType, text: await answer.text() };
  };

  // A stateless server offers no GET stream and no session to DELETE: 405, as in the SDK's
  // stateless example, whatever the credentials.
  router.all('/', (_req, _res, next) => {
    const err = new ApiError('method_not_allowed', 'The MCP endpoint takes POST only (stateless).');
    err.headers = { Allow: 'POST' };
    next(err);
  });

  return router;
}

/** What a POST answers: its status and body (none for a 202), or null when the client left first. */
type Reply = { status: number; contentType?: string; text?: string } | null;

/** The ApiError for a refusal of the transport; what is not the caller's fault becomes a 500. */
function refusalOf(status: number, text: string): unknown {
  let error: { code?: unknown; data?: unknown; message?: unknown } | undefined;
  try {
    error = (JSON.parse(text) as { error?: typeof error }).error;
  } catch {
    error = undefined;
  }
  const refusal = {
    status,
    rpcCode: typeof error?.code === 'number' ? error.code : undefined,
    hasData: error?.data !== undefined,
    ...(typeof error?.message === 'string' ? { message: error.message } : {}),
  };
  return (
    fromTransportRefusal(refusal) ??
    new Error(`mcp transport answered ${status}: ${text.slice(0, 500)}`)
  );
}

/**
 * Each POST is one request with one X-Request-ID (the app's requestId middleware validated or
 * generated it) and, batches being refused, one message: a billable tool call spends the id
 * through the ReadService. Its headers are set before the transport writes the JSON response.
 */
function requestScope(
  caller: Caller,
  res: Response,
  deps: Settings,
  deferred: DeferredJson,
  argumentsAsSent: Record<string, unknown> | undefined,
): RequestScope {
  return {
    caller,
    logger: deps.logger,
    deferred,
    limitedByService: false,
    ...(argumentsAsSent ? { argumentsAsSent } : {}),
    setHeaders(headers) {
      if (!res.headersSent) res.set(headers);
    },
  };
}

/** A tools/call message's `params.arguments` object as parsed from the body, if it has one. */
function argumentsOf(message: unknown): Record<string, unknown> | undefined {
  const { method, params } = (message ?? {}) as { method?: unknown; params?: unknown };
  if (method !== 'tools/call' || typeof params !== 'object' || params === null) return undefined;
  const args = (params as { arguments?: unknown }).arguments;
  return typeof args === 'object' && args !== null && !Array.isArray(args)
    ? (args as Record<string, unknown>)
    : undefined;
}
