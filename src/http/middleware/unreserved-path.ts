import type { NextFunction, Request, Response } from 'express';

// RFC 3986 §6.2.2.2: a percent-encoded unreserved character (A-Z a-z 0-9 - . _ ~) is the
// character itself, so `/v1/opportunities/%63ount` is the count, not an opportunity id named
// "count" (contract §5.1), and `/v1/%6Fpportunities` is the list. Express routes the path as
// written: it is decoded here, before any route or method check. Reserved characters keep their
// encoding (`%2F` is not a slash), and the query string is left to the query parser.

const ENCODED = /%[0-9A-Fa-f]{2}/g;
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/** The path with its percent-encoded unreserved characters decoded. */
export function decodeUnreserved(path: string): string {
  return path.replace(ENCODED, (escape) => {
    const char = String.fromCharCode(parseInt(escape.slice(1), 16));
    return UNRESERVED.test(char) ? char : escape;
  });
}

export function unreservedPath(req: Request, _res: Response, next: NextFunction): void {
  const query = req.url.indexOf('?');
  const path = query === -1 ? req.url : req.url.slice(0, query);
  if (path.includes('%')) {
    const decoded = decodeUnreserved(path);
    if (decoded !== path) req.url = decoded + (query === -1 ? '' : req.url.slice(query));
  }
  next();
}
