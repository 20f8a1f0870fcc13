import { Router } from 'express';
import { buildOpenApiDocument } from '../openapi';

export function openApiRoutes(): Router {
  const document = buildOpenApiDocument();
  const router = Router();
  router.get('/v1/openapi.json', (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.json(document);
  });
  return router;
}
