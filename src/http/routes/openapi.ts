import { Router } from 'express';
import type { Env } from '../../config';
import { buildOpenApiDocument } from '../openapi';
import { mountOperation } from '../operations';

/** GET /v1/openapi.json; its servers entry is PUBLIC_BASE_URL when set, never the Host header. */
export function openApiRoutes(env: Env): Router {
  const built = buildOpenApiDocument();
  const document =
    env.PUBLIC_BASE_URL === undefined
      ? built
      : { ...built, servers: [{ url: env.PUBLIC_BASE_URL }] };
  const router = Router();
  mountOperation(router, 'getOpenApiDocument', (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.json(document);
  });
  return router;
}
