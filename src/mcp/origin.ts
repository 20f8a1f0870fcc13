import type { NextFunction, Request, Response } from 'express';
import type { Env } from '../config';
import { ApiError } from '../domain/errors';
import { ownOrigin } from '../adapter/public-base';
import { normalizeOrigin } from '../infra/http-text';

/** contract §21.3.2: no origin is longer; a longer Origin header is refused before anything is done with it. */
export const MAX_ORIGIN_LENGTH = 2048;

/**
 * contract §21.3 (and the MCP transport specification's defence against DNS rebinding): a
 * /mcp request whose Origin is neither the service's own origin (adapter/public-base.ts: from
 * PUBLIC_BASE_URL, or the Host header in local mode only) nor one of MCP_ALLOWED_ORIGINS is refused
 * with 403 and the envelope; a request without Origin (a server-side client) is served. It runs
 * before authentication, so it is linear in the header (infra/http-text.ts) and bounded.
 */
export function checkOrigin(env: Env) {
  const listed = new Set(env.MCP_ALLOWED_ORIGINS);
  return (req: Request, _res: Response, next: NextFunction): void => {
    const origin = req.get('origin');
    if (origin === undefined) return next();
    if (origin.length <= MAX_ORIGIN_LENGTH) {
      const normalized = normalizeOrigin(origin);
      if (listed.has(normalized) || normalized === ownOrigin(env, req)) return next();
    }
    next(
      new ApiError(
        'origin_not_allowed',
        'This Origin may not call the MCP endpoint; the operator can allow it in MCP_ALLOWED_ORIGINS.',
      ),
    );
  };
}
