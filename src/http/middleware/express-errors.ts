import { ApiError, validationError } from '../../domain/errors';

// contract §20.4: no request, however malformed, gets a 500. Express, its router and body-parser
// refuse some requests themselves with an error carrying an HTTP status (`status`, `statusCode`)
// and, for body-parser, a `type`; each becomes the ApiError of the matching documented status.

interface HttpishError {
  status?: unknown;
  statusCode?: unknown;
  type?: unknown;
  /** body-parser's bound, in bytes, on a 413. */
  limit?: unknown;
}

function statusOf(err: unknown): number | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const { status, statusCode } = err as HttpishError;
  const value = typeof status === 'number' ? status : statusCode;
  return typeof value === 'number' && value >= 400 && value < 500 ? value : undefined;
}

/** The router's own refusal to decode a path parameter (`/v1/opportunities/%ZZ`). */
export function isBadPathEscape(err: unknown): boolean {
  return err instanceof URIError && statusOf(err) === 400;
}

/** The ApiError for an express-raised client error, or null when `err` is not one (a bug: 500). */
export function fromExpressError(err: unknown): ApiError | null {
  const status = statusOf(err);
  if (status === undefined) return null;
  const type = (err as HttpishError).type;
  if (isBadPathEscape(err)) {
    return validationError(
      'path',
      'bad_format',
      'The request path has a malformed percent-escape.',
    );
  }
  if (type === 'entity.parse.failed') {
    // body-parser's strict mode refuses valid JSON too (`null`, `"x"`): only an object or an
    // array can be a message, and the message said "not valid JSON" of those.
    return validationError('body', 'bad_format', 'The request body is not a JSON object or array.');
  }
  switch (status) {
    case 404:
      return new ApiError('not_found', 'Not found.');
    case 405:
      return new ApiError('method_not_allowed', 'Method not allowed.');
    case 413: {
      // The bound, so the caller knows what to send instead.
      const limit = (err as HttpishError).limit;
      return new ApiError(
        'payload_too_large',
        typeof limit === 'number'
          ? `The request body is too large: at most ${limit} bytes.`
          : 'The request body is too large.',
      );
    }
    case 431:
      return new ApiError('request_header_fields_too_large', 'The request headers are too large.');
    default:
      // Unsupported charset or encoding (415), aborted or mis-sized bodies (400): the request
      // itself is malformed, and the documented answer to that is 422 (contract §20.4).
      return validationError('body', 'bad_format', 'The request could not be read.');
  }
}
