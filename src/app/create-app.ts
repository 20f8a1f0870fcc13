import express, { type Express } from 'express';
import { createAuthenticator } from '../adapter/authenticate';
import { marketplaceVerified } from '../adapter/caller';
import { errorHandler, notFound } from '../http/middleware/errors';
import { allowedMethods, methodGuard } from '../http/middleware/methods';
import { requestId, requestIdRefusalOf } from '../http/middleware/request-id';
import { unreservedPath } from '../http/middleware/unreserved-path';
import { requestLog } from '../http/middleware/request-log';
import { docsRoutes } from '../http/routes/docs';
import { healthRoutes } from '../http/routes/health';
import { refuseKeyInQuery } from '../http/middleware/key-in-query';
import { llmsRoutes } from '../http/routes/llms';
import { metricsRoutes, metricsServed, mountedAt, requestMetrics } from '../http/routes/metrics';
import { openApiRoutes } from '../http/routes/openapi';
import { opportunityRoutes } from '../http/routes/opportunities';
import { previewRoutes } from '../http/routes/preview';
import { taxonomyRoutes } from '../http/routes/taxonomy';
import { usageRoutes } from '../http/routes/usage';
import { assembledOnDemand } from './assembled-on-demand';
import type { Capabilities } from './compose';

/**
 * The express app over built capabilities (app/compose.ts): the REST routes and the /mcp adapter
 * side by side, sharing one authenticator, rate limiter and meter. Tests call it on an ephemeral
 * port. Lives above http/ and mcp/ so that neither adapter imports the other.
 */
export interface AppOptions {
  /**
   * When /mcp's adapter is loaded (app/assembled-on-demand.ts): a server process loads it as it
   * starts; an app assembled for anything else (tests, tools), when a request first needs it.
   */
  mcp?: 'now' | 'on-first-request';
}

export function createApp(capabilities: Capabilities, options: AppOptions = {}): Express {
  const { settings, limits, reads } = capabilities;
  const auth = createAuthenticator(capabilities.auth);

  const app = express();
  app.disable('x-powered-by');
  // Validators are set deliberately (taxonomy); authenticated reads are never cached.
  app.set('etag', false);
  // Conditional requests are answered by the routes that have validators (list, count, taxonomy:
  // contract §13). Express's own check would turn any other 2xx into a bodiless 304 for
  // `If-None-Match: *`, where there is no validator at all (the preview, health, the docs).
  Object.defineProperty(app.request, 'fresh', { configurable: true, get: () => false });
  // contract §19.6: the socket's address unless TRUST_PROXY names the proxies to believe.
  app.set('trust proxy', settings.env.TRUST_PROXY);
  // 'simple' keeps parameter names literal and turns a repeated parameter into an array (contract §6.3).
  app.set('query parser', 'simple');
  // contract §5.9: authenticated responses are never cached, errors included (even those raised
  // before a route runs). The taxonomy and the OpenAPI document opt in to caching themselves.
  // contract §5.10: no response is ever sniffed into another type (errors, assets and /mcp too).
  app.use((_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    next();
  });
  app.use(requestId);
  app.use(requestLog(settings.logger));
  app.use(requestMetrics);
  app.use(unreservedPath);
  // contract §5.11: the method is checked before any key is looked up or anything metered.
  const served = { metrics: metricsServed(settings.env) };
  app.use(methodGuard(served));
  // The routes' paths are disjoint, so their order is only what each request walks past before its
  // own: the busiest (the authenticated reads and the tool protocol) come first.
  app.use(opportunityRoutes(settings, auth, reads));
  app.use(
    '/mcp',
    mountedAt('/mcp'),
    assembledOnDemand(
      async () => (await import('../mcp/http')).mcpRoutes(settings, auth, reads),
      options.mcp ?? 'on-first-request',
    ),
  );
  app.use(usageRoutes(settings, auth, reads));
  // Past the authenticated routes: a malformed X-Request-ID held back for a key (request-id.ts)
  // is refused here on the other routes that are served, the health probes aside.
  app.use((req, _res, next) =>
    next(requestIdRefusalOf(req, (path) => allowedMethods(path, served) !== undefined)),
  );
  app.use(refuseKeyInQuery);
  // The lifecycle is read per request: server.ts sets it on the settings (contract §22.6: draining).
  app.use(healthRoutes(capabilities.health, () => settings.lifecycle));
  app.use(metricsRoutes(settings.env, auth));
  app.use(taxonomyRoutes(settings));
  app.use(previewRoutes(settings, limits, capabilities.index));
  app.use(openApiRoutes(settings.env));
  app.use(docsRoutes());
  app.use(llmsRoutes(settings.env));
  app.use(notFound);
  app.use(
    errorHandler(settings.logger, (err, req) =>
      reads.accountRefusal(err, marketplaceVerified(req, settings.env)),
    ),
  );
  return app;
}
