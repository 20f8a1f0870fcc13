import express, { type Express } from 'express';
import type { AppDeps } from '../service/context';
import { errorHandler, notFound } from './middleware/errors';
import { requestId } from './middleware/request-id';
import { requestLog } from './middleware/request-log';
import { healthRoutes } from './routes/health';
import { openApiRoutes } from './routes/openapi';
import { previewRoutes } from './routes/preview';
import { taxonomyRoutes } from './routes/taxonomy';

/** Builds the express app from its dependencies; tests call it without a listening server. */
export function createApp(deps: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  // Validators are set deliberately (taxonomy); authenticated reads are never cached.
  app.set('etag', false);
  app.set('trust proxy', 'loopback');
  // 'simple' keeps parameter names literal and turns a repeated parameter into an array (decisions 2).
  app.set('query parser', 'simple');
  app.use(requestId);
  app.use(requestLog(deps.logger));
  app.use(healthRoutes(deps));
  app.use(taxonomyRoutes(deps));
  app.use(previewRoutes(deps));
  app.use(openApiRoutes());
  app.use(notFound);
  app.use(errorHandler(deps.logger));
  return app;
}
