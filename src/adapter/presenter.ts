import type { Response } from 'express';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { ApiError, toEnvelope } from '../domain/errors';
import type { ListEnvelope } from '../domain/envelopes';
import { reportApiError } from '../infra/api-error-report';
import { endWith, type AssembledBody, type BodyPieces } from '../infra/reply-buffers';
import type { Logger } from '../infra/logger';
import { countJson } from '../service/count-json';
import { listJsonPieces, listJsonStringPieces } from '../service/list-bytes';
import { listJson } from '../service/list-json';
import type { Outcome } from '../service/read-service';

// The ONE presenter of both adapters: a read's outcome becomes a REST response or an MCP
// tool result here, and nowhere else is the error envelope (contract §4.7) or Retry-After
// (contract §18.1) written, nor an error answer counted (each answer is written once, so counted
// once: infra/api-error-report.ts).

/** An error's own headers, with Retry-After (integer seconds) where it has one (429, 503). */
export function errorHeaders(err: ApiError): Record<string, string> {
  return err.retryAfter === undefined
    ? { ...err.headers }
    : { ...err.headers, 'Retry-After': String(err.retryAfter) };
}

/** Anything that is not an ApiError is a bug: logged with its stack, answered without details. */
export function unexpectedError(
  err: unknown,
  logger: Logger,
  message: string,
  fields: Record<string, unknown>,
): ApiError {
  logger.error(message, {
    ...fields,
    error: err instanceof Error ? (err.stack ?? err.message) : String(err),
  });
  return new ApiError('internal_server_error', 'An unexpected error occurred.');
}

/** REST: an error as the response (the app's error handler calls this, and only it). */
export function sendError(res: Response, err: ApiError, requestId: string, logger: Logger): void {
  reportApiError(err, logger);
  res.set(errorHeaders(err));
  res.status(err.status).json(toEnvelope(err, requestId));
}

/**
 * REST: a served read (its headers, ETag, 304 without a body, or the body; `serialize` writes a
 * body that was serialized ahead, as list pages are, as a string or as its UTF-8 bytes assembled
 * in a pooled buffer), or a refused one: its headers go on the response and its error to the app's
 * error handler (sendError).
 */
export function sendOutcome<T>(
  res: Response,
  outcome: Outcome<T>,
  serialize: (body: T) => string | AssembledBody = (body) => JSON.stringify(body),
): void {
  for (const [name, value] of Object.entries(outcome.headers)) res.setHeader(name, value);
  if (!outcome.ok) throw outcome.error;
  if (outcome.etag) res.setHeader('ETag', outcome.etag);
  // contract §13: a 304 carries the usage and rate-limit headers, and no body.
  if (outcome.notModified) {
    res.status(304).end();
    return;
  }
  // Written here, not with res.send or res.json: they turn any 200 whose ETag the request's
  // If-None-Match names into a 304 with no body, and only the service may decide that (a list page
  // with a record the account has not received is served, and charged, with a matching tag). The
  // same bytes and Content-Type as res.json; Node leaves the body out of a HEAD answer.
  const text = serialize(outcome.body);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader(
    'Content-Length',
    typeof text === 'string' ? Buffer.byteLength(text) : text.bytes.length,
  );
  endWith(res, text);
}

/**
 * An MCP tool result's two texts as the reply holds them (mcp/deferred-json.ts): `structured`,
 * exactly JSON.stringify(structuredContent), and `text`, the text block as a JSON string (exactly
 * JSON.stringify of the envelope's JSON); each a string or its UTF-8 bytes in pieces.
 */
export interface ResultTexts {
  structured: string | BodyPieces;
  text: string | BodyPieces;
}

/** Bodies served unchanged to every caller (the taxonomy), serialized once per process. */
const serializedOnce = new WeakMap<object, { json: string; texts: ResultTexts }>();

/**
 * Marks `body` as the same for every call and never changed: its tool results reuse one JSON
 * text (contract §21.10: the taxonomy tool's reply is built once per process, not once per call).
 */
export function serializeOnce<T extends object>(body: T): T {
  const json = JSON.stringify(body);
  // Its JSON, and that JSON as a JSON string (a tool result's text block in the reply), as bytes.
  const encoder = new TextEncoder();
  const texts = {
    structured: [encoder.encode(json)],
    text: [encoder.encode(JSON.stringify(json))],
  };
  serializedOnce.set(body, { json, texts });
  return body;
}

/**
 * MCP: structuredContent is the envelope itself; the text block is the same JSON (contract §21.7),
 * exactly JSON.stringify(structuredContent). The result comes with the texts the reply holds
 * (mcp/deferred-json.ts writes the reply from them): a list page's as each record's kept bytes
 * (list-bytes.ts), a repeated count's spliced from its kept shape (count-json.ts), the taxonomy's
 * made once, so the envelope is not serialized again. A list page's text block is made only if
 * read: the reply never reads it, and the page's 50 KB were joined per call for nothing.
 */
function toolResult(
  envelope: object,
  isError: boolean,
): { result: CallToolResult; texts: ResultTexts } {
  const structuredContent: Record<string, unknown> = { ...envelope };
  const flags = isError ? { isError: true } : {};
  const once = serializedOnce.get(envelope);
  if (once) {
    return {
      result: { content: [{ type: 'text', text: once.json }], structuredContent, ...flags },
      texts: once.texts,
    };
  }
  const list = envelope as ListEnvelope;
  const structured = listJsonPieces(list);
  const text = listJsonStringPieces(list);
  if (structured && text) {
    let json: string | undefined;
    const block = {
      type: 'text' as const,
      get text(): string {
        return (json ??= listJson(list));
      },
    };
    return {
      result: { content: [block], structuredContent, ...flags },
      texts: { structured, text },
    };
  }
  // Spliced from its kept shape when countEnvelope built it, else JSON.stringify(envelope).
  const json = countJson(envelope);
  return {
    result: { content: [{ type: 'text', text: json }], structuredContent, ...flags },
    texts: { structured: json, text: JSON.stringify(json) },
  };
}

/**
 * MCP: a tool's outcome as its result and the headers for the HTTP response. contract §21.5: quota,
 * rate, validation, not-found and availability problems are results with isError and the error
 * envelope, never protocol errors.
 */
export function toolOutcome(
  outcome: Outcome<object>,
  requestId: string,
  logger: Logger,
): { result: CallToolResult; texts: ResultTexts; headers: Record<string, string> } {
  if (outcome.ok) return { ...toolResult(outcome.body, false), headers: outcome.headers };
  reportApiError(outcome.error, logger);
  return {
    ...toolResult(toEnvelope(outcome.error, requestId), true),
    headers: { ...outcome.headers, ...errorHeaders(outcome.error) },
  };
}
