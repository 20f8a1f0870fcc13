import { createHash, timingSafeEqual } from 'node:crypto';
import { Router, type NextFunction, type Request, type Response } from 'express';
import { ApiError } from '../../domain/errors';
import { metrics, registry } from '../../infra/metrics';

/**
 * Records every answered request by route pattern (never the raw path: a 404 flood of random paths
 * must not create series), status and duration.
 */
export function requestMetrics(req: Request, res: Response, next: NextFunction): void {
  const started = process.hrtime.bigint();
  res.on('finish', () => {
    const route = req.route ? `${req.baseUrl}${String(req.route.path)}` : 'unmatched';
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    metrics.request(req.method, route, res.statusCode, seconds);
  });
  next();
}

/**
 * GET /metrics in the Prometheus text format. Public when `token` is unset; otherwise only with
 * `Authorization: Bearer <token>`, and anyone else gets the 404 of an unknown route (the endpoint's
 * existence is not advertised).
 */
export function metricsRoutes(token: string | undefined): Router {
  const router = Router();
  router.get('/metrics', async (req, res, next) => {
    if (token !== undefined && !bearerMatches(req.get('authorization'), token)) {
      next(new ApiError('not_found', `No route for ${req.method} ${req.path}.`));
      return;
    }
    res.setHeader('Content-Type', registry.contentType);
    res.send(await registry.metrics());
  });
  return router;
}

function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer (.+)$/i.exec(header ?? '');
  if (!match?.[1]) return false;
  // Equal-length digests, so the comparison takes the same time whatever was sent.
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(match[1]), digest(token));
}
