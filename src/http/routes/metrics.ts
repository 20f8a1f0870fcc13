import { createHash, timingSafeEqual } from 'node:crypto';
import { Router, type NextFunction, type Request, type Response } from 'express';
import { ApiError } from '../../domain/errors';
import type { Authenticator } from '../../adapter/authenticate';
import { metrics, registry } from '../../infra/metrics';
import { metricsText } from '../../infra/process-metrics';
import { isProduction, type Env } from '../../config';

/**
 * Records every answered request by route pattern (never the raw path: a 404 flood of random paths
 * must not create series), status and duration.
 */
export function requestMetrics(req: Request, res: Response, next: NextFunction): void {
  const started = process.hrtime.bigint();
  res.on('finish', () => {
    // A mounted router's requests carry the mount's path as written in the code, matched or not
    // (a refusal before its route, /MCP in another case, /mcp/).
    const mounted = (res.locals as MountedAt).mountedAt;
    const route = mounted ?? (req.route ? `${req.baseUrl}${String(req.route.path)}` : 'unmatched');
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    metrics.request(req.method, route, res.statusCode, seconds);
  });
  next();
}

interface MountedAt {
  mountedAt?: string;
}

/**
 * Put before a router mounted at `path` (one route, as /mcp's): its requests' series carry that
 * path. A request the router passes on with an error has left it when its response finishes, and
 * express has then put req.baseUrl back to the app's (a refused /mcp request was counted as route
 * "/"); a request refused before the route is unmatched; and req.baseUrl is the client's spelling.
 */
export function mountedAt(path: string) {
  return (_req: Request, res: Response, next: NextFunction): void => {
    (res.locals as MountedAt).mountedAt = path;
    next();
  };
}

/**
 * GET /metrics in the Prometheus text format (contract §22.7.3). With METRICS_TOKEN set, only with
 * `Authorization: Bearer <token>` (401 otherwise); without one it is public in local mode and not
 * served at all in production (the 404 of an unknown route), since its counters are business data.
 */
export function metricsRoutes(env: Env, auth: Pick<Authenticator, 'refuse'>): Router {
  const router = Router();
  const token = env.METRICS_TOKEN;
  if (!metricsServed(env)) return router;
  router.get('/metrics', async (req, res, next) => {
    if (token !== undefined && !bearerMatches(req.get('authorization'), token)) {
      const missing = req.get('authorization') === undefined;
      const refusal = new ApiError(
        missing ? 'missing_api_key' : 'invalid_api_key',
        'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>.',
      );
      refusal.headers['WWW-Authenticate'] = 'Bearer realm="metrics"';
      // Counted with the address's failed keys (contract §19.5): a token is guessed no cheaper.
      await auth.refuse(refusal, req.ip).catch(next);
      return;
    }
    // Every process's, when several share the port (API_PROCESSES, infra/process-metrics.ts).
    const text = await metricsText(registry).catch((err: unknown) => err as Error);
    if (text instanceof Error) return next(text);
    res.setHeader('Content-Type', registry.contentType);
    res.send(text);
  });
  return router;
}

/** Whether /metrics is served at all: not in production without a token. */
export function metricsServed(env: Env): boolean {
  return env.METRICS_TOKEN !== undefined || !isProduction(env);
}

function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? '');
  if (!match?.[1]) return false;
  // Equal-length digests, so the comparison takes the same time whatever was sent.
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(match[1]), digest(token));
}
