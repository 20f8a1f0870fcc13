import { Router } from 'express';
import type { Env } from '../../config';
import { checkOnlyParams } from '../../domain/filters';
import { once } from '../../infra/once';
import { buildOpenApiDocument } from '../openapi';
import { mountOperation } from '../operations';

/** GET /v1/openapi.json; its servers entry is PUBLIC_BASE_URL when set, never the Host header. */
export function openApiRoutes(env: Env): Router {
  // Written on the first request for it: few processes are ever asked.
  const document = once(() => {
    const built = buildOpenApiDocument();
    return env.PUBLIC_BASE_URL === undefined
      ? built
      : { ...built, servers: [{ url: env.PUBLIC_BASE_URL }] };
  });
  const router = Router();
  mountOperation(router, 'getOpenApiDocument', (req, res) => {
    // No parameters: a name in the query (a pasted key among them) is an unknown one, as everywhere.
    checkOnlyParams(req.query, []);
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.json(document());
  });
  return router;
}
