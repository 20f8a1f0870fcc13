import type { NextFunction, Request, Response } from 'express';
import { ApiError } from '../../domain/errors';
import { DOCS_ASSETS } from '../docs/page';

// contract §5.11: which methods each known path takes, decided before authentication or any work.
// HEAD is never metered: on a metered path it is 405 (Allow: GET); on a free path express answers
// it as the GET without a body. Any other method on a known path is 405 with Allow and the
// envelope, not the 404 of an unknown route. OPTIONS is one of those: the API serves no browser
// preflight (keys stay server-side, contract §14.2), so it is refused like any other method.
// /mcp keeps its own method handling (mcp/http.ts).

const METERED = 'GET';
const FREE = 'GET, HEAD';

/** Path patterns (express matches case-insensitively and ignores one trailing slash, so do these). */
const PATHS: readonly (readonly [RegExp, string])[] = [
  [/^\/v1\/opportunities\/(count)\/?$/i, FREE],
  [/^\/v1\/opportunities(\/changes)?\/?$/i, METERED],
  [/^\/v1\/opportunities\/[^/]+\/?$/i, METERED],
  [/^\/v1\/(usage|taxonomy\/occupations|openapi\.json|preview\/opportunities)\/?$/i, FREE],
  [/^\/(healthz|readyz|llms\.txt|docs|docs\/init\.js)\/?$/i, FREE],
];

/** A file of /docs/assets: a known path only for the files it serves (http/docs/page.ts). */
const ASSET = /^\/docs\/assets\/([^/]+)\/?$/i;

/** /metrics, a known path only where it is served (not in production without a token). */
const METRICS = /^\/metrics\/?$/i;

/** Which optional paths this app serves. */
export interface ServedPaths {
  metrics: boolean;
}

/** The Allow header of a known path, or undefined for a path the app does not serve. */
export function allowedMethods(
  path: string,
  served: ServedPaths = { metrics: true },
): string | undefined {
  if (METRICS.test(path)) return served.metrics ? FREE : undefined;
  const asset = ASSET.exec(path);
  if (asset) return DOCS_ASSETS.includes(asset[1] ?? '') ? FREE : undefined;
  return PATHS.find(([pattern]) => pattern.test(path))?.[1];
}

/**
 * The guard for an app serving `served`: a path it does not serve stays the 404 of an unknown
 * route whatever the method, so a 405 never names a route that a GET would not find.
 */
export function methodGuard(served: ServedPaths) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    if (req.method === 'GET') return next();
    const allow = allowedMethods(req.path, served);
    if (allow === undefined) return next();
    if (req.method === 'HEAD' && allow === FREE) return next();
    const err = new ApiError(
      'method_not_allowed',
      `This path takes ${allow.replace(', ', ' and ')} only.`,
    );
    err.headers = { Allow: allow };
    next(err);
  };
}
