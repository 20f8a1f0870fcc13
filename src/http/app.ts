import express, { type Express } from 'express';
import { Meter } from '../billing/meter';
import { RateLimits } from '../billing/rate-limit';
import type { AppDeps } from '../service/context';
import { mcpRoutes } from '../mcp/http';
import { ReadService } from '../service/read-service';
import { createAuthenticator } from './middleware/authenticate';
import { errorHandler, notFound } from './middleware/errors';
import { requestId } from './middleware/request-id';
import { requestLog } from './middleware/request-log';
import { docsRoutes } from './routes/docs';
import { healthRoutes } from './routes/health';
import { llmsRoutes } from './routes/llms';
import { metricsRoutes, requestMetrics } from './routes/metrics';
import { openApiRoutes } from './routes/openapi';
import { opportunityRoutes } from './routes/opportunities';
import { previewRoutes } from './routes/preview';
import { taxonomyRoutes } from './routes/taxonomy';
import { usageRoutes } from './routes/usage';

/**
 * Builds the express app from its dependencies; tests call it on an ephemeral port. The
 * authenticator, rate limits and meter are built once here and shared by every adapter.
 */
export function createApp(deps: AppDeps): Express {
  const auth = createAuthenticator(deps);
  const limits = new RateLimits(deps.redis, deps.databaseName);
  const reads = new ReadService(
    deps,
    new Meter(deps.pool, { timeoutMs: deps.env.POSTGRES_TIMEOUT_MS }),
    limits,
  );

  const app = express();
  app.disable('x-powered-by');
  // Validators are set deliberately (taxonomy); authenticated reads are never cached.
  app.set('etag', false);
  // decisions 8: the socket's address unless TRUST_PROXY names the proxies to believe.
  app.set('trust proxy', deps.env.TRUST_PROXY);
  // 'simple' keeps parameter names literal and turns a repeated parameter into an array (decisions 2).
  app.set('query parser', 'simple');
  // decisions 8: authenticated responses are never cached, errors included (even those raised
  // before a route runs). The taxonomy and the OpenAPI document opt in to caching themselves.
  app.use((_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  app.use(requestId);
  app.use(requestLog(deps.logger));
  app.use(requestMetrics);
  app.use(healthRoutes(deps));
  app.use(metricsRoutes(deps.env.METRICS_TOKEN));
  app.use(taxonomyRoutes(deps));
  app.use(previewRoutes(deps, limits));
  app.use(opportunityRoutes(deps, auth, reads));
  app.use(usageRoutes(deps, auth, reads));
  app.use('/mcp', mcpRoutes(deps, auth, reads));
  app.use(openApiRoutes());
  app.use(docsRoutes());
  app.use(llmsRoutes());
  app.use(notFound);
  app.use(errorHandler(deps.logger));
  return app;
}
