import type { NextFunction, Request, Response } from 'express';
import { ApiError } from '../domain/errors';

/**
 * decisions 9 (and the MCP transport specification's defence against DNS rebinding): a /mcp
 * request whose Origin is neither the service's own origin nor one of MCP_ALLOWED_ORIGINS is
 * refused with 403 and the envelope; a request without Origin (a server-side client) is served.
 */
export function checkOrigin(allowed: readonly string[]) {
  const listed = new Set(allowed);
  return (req: Request, _res: Response, next: NextFunction): void => {
    const origin = req.get('origin');
    if (origin === undefined) return next();
    const normalized = origin.trim().replace(/\/+$/, '').toLowerCase();
    const own = `${req.protocol}://${req.get('host') ?? ''}`.toLowerCase();
    if (normalized === own || listed.has(normalized)) return next();
    next(
      new ApiError(
        'origin_not_allowed',
        'This Origin may not call the MCP endpoint; the operator can allow it in MCP_ALLOWED_ORIGINS.',
      ),
    );
  };
}
