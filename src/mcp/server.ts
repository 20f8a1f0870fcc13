import { Server, type CallToolResult, type ListToolsResult } from '@modelcontextprotocol/server';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import { toolOutcome, unexpectedError } from '../adapter/presenter';
import { ApiError } from '../domain/errors';
import type { TaxonomyEnvelope } from '../domain/envelopes';
import { wellFormedArguments } from '../domain/well-formed';
import type { Logger } from '../infra/logger';
import type { Caller, Refused } from '../service/read-service';
import type { DeferredJson } from './deferred-json';
import { serverInstructions } from './descriptions';
import { guardRequestHandlers, refuseCursor, unknownName } from './protocol-errors';
import { registerResources, taxonomyResource, type TaxonomyResource } from './resources';
import type { ToolDefinition } from './tools';

// The low-level SDK Server (v2, @modelcontextprotocol/server) with our own tools/list and
// tools/call handlers (contract §21.6; notes/mcp-sdk.md): McpServer would reject bad arguments itself
// with a bare-text error and drop a union output schema from the listing, and neither may happen
// here. The same Server serves every protocol revision (contract §21.4): the SDK's codecs frame a
// 2025-era reply and a 2026-07-28 one, and answer initialize and server/discover themselves.

export const SERVER_INFO = { name: 'opportunity-read-api', version: '1.0.0-beta.1' } as const;

/** What one HTTP request gives its tool calls (see http.ts). */
export interface RequestScope {
  caller: Caller;
  logger: Logger;
  /** Puts a call's rate-limit and usage headers on the HTTP response (contract §18). */
  setHeaders(headers: Record<string, string>): void;
  /** Where tool results leave their JSON until the reply is written (deferred-json.ts). */
  deferred: DeferredJson;
  /**
   * Set once a tool the ReadService limits was answered by it: the call was counted against the
   * rate limit there and its headers set, so the POST needs no admission of its own (admission.ts).
   */
  limitedByService: boolean;
  /**
   * The tool call's arguments as JSON.parse read them from the body. The SDK's parse copies them
   * by assignment, which turns an own `__proto__` key into the copy's prototype: it would vanish
   * instead of being refused as an unknown argument, as REST refuses `?__proto__=`.
   */
  argumentsAsSent?: Record<string, unknown>;
}

function asApiError(err: unknown, scope: RequestScope, tool: string): ApiError {
  if (err instanceof ApiError) return err;
  return unexpectedError(err, scope.logger, 'unhandled tool error', {
    request_id: scope.caller.requestId,
    tool,
  });
}

const refused = (error: ApiError): Refused => ({ ok: false, error, headers: {} });

/**
 * What every request's Server shares, built once per process: none of it depends on the request
 * or holds per-connection state. The JSON Schema validator matters most: without one the SDK
 * builds a new Ajv instance (meta-schemas, formats) in every Server's constructor, for
 * elicitation, which this server never sends; a shared one is the same validator, built once.
 */
export interface ServerParts {
  tools: readonly ToolDefinition[];
  byName: ReadonlyMap<string, ToolDefinition>;
  taxonomy: TaxonomyResource;
  validator: AjvJsonSchemaValidator;
  /** The server's instructions, naming the result budget in force (contract §21.11). */
  instructions: string;
}

export function serverParts(
  tools: readonly ToolDefinition[],
  taxonomy: TaxonomyEnvelope,
  maxResultBytes: number,
): ServerParts {
  return {
    tools,
    byName: new Map(tools.map((t) => [t.name as string, t])),
    taxonomy: taxonomyResource(taxonomy),
    validator: new AjvJsonSchemaValidator(),
    instructions: serverInstructions(maxResultBytes),
  };
}

/**
 * A fresh Server per HTTP request (stateless Streamable HTTP): the SDK's Protocol keeps in-flight
 * requests by JSON-RPC id and takes one transport at a time, and the handlers close over the
 * request's scope, so nothing of it outlives the request; only the immutable parts are shared.
 */
export function createMcpServer(parts: ServerParts, scope: RequestScope): Server {
  const { tools, byName } = parts;
  const server = new Server(SERVER_INFO, {
    capabilities: {
      tools: { listChanged: false },
      resources: { listChanged: false, subscribe: false },
    },
    instructions: parts.instructions,
    jsonSchemaValidator: parts.validator,
  });
  registerResources(server, parts.taxonomy);

  server.setRequestHandler('tools/list', (request): ListToolsResult => {
    refuseCursor(request.params);
    return {
      tools: tools.map(({ name, title, description, inputSchema, outputSchema, annotations }) => ({
        name,
        title,
        description,
        inputSchema,
        outputSchema,
        annotations,
      })),
    };
  });

  server.setRequestHandler('tools/call', async (request): Promise<CallToolResult> => {
    const tool = byName.get(request.params.name);
    // A tool that does not exist is a protocol error (JSON-RPC invalid params), not a domain one.
    if (!tool) throw unknownName('tool', request.params.name);
    // A tool's own argument check throws before any read; anything else thrown is a bug. A lone
    // surrogate in a name or a value is read as REST reads the same bytes (contract §21.6.5).
    const args = wellFormedArguments(scope.argumentsAsSent ?? request.params.arguments ?? {});
    const outcome = await tool.run(scope.caller, args).then(
      (served) => {
        // Every outcome of the ReadService passed its rate limit first (ReadService.serve).
        if (tool.limitedByService) scope.limitedByService = true;
        return served;
      },
      (err: unknown) => refused(asApiError(err, scope, tool.name)),
    );
    const { result, texts, headers } = toolOutcome(outcome, scope.caller.requestId, scope.logger);
    scope.setHeaders(headers);
    return scope.deferred.defer(result, texts);
  });

  guardRequestHandlers(server, scope.logger, scope.caller.requestId);
  return server;
}
