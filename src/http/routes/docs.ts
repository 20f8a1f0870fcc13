import { Router, type Response } from 'express';
import path from 'node:path';
import { DOCS_ASSETS, DOCS_CSP, DOCS_HTML, DOCS_INIT_JS } from '../docs/page';

// GET /docs (contract §5.8.2): Swagger UI served from the project's own dependency (no CDN).
// Only the files the page uses are exposed, by name, from the installed swagger-ui-dist.
const ASSETS_DIR = path.dirname(require.resolve('swagger-ui-dist/package.json'));

export function docsRoutes(): Router {
  const router = Router();
  const send = (type: string, body: string) => (_req: unknown, res: Response) => {
    res.setHeader('Content-Security-Policy', DOCS_CSP);
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.type(type).send(body);
  };
  router.get('/docs', send('html', DOCS_HTML));
  router.get('/docs/init.js', send('js', DOCS_INIT_JS));
  router.get('/docs/assets/:file', (req, res, next) => {
    const file = req.params.file;
    if (!DOCS_ASSETS.includes(file)) return next();
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.sendFile(path.join(ASSETS_DIR, file));
  });
  return router;
}
