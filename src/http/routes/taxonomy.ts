import { Router } from 'express';
import type { AppDeps } from '../../service/context';
import { taxonomyDocument } from '../../service/taxonomy-service';

/** GET /v1/taxonomy/occupations: no key, cacheable (decisions 4). */
export function taxonomyRoutes(deps: AppDeps): Router {
  const doc = taxonomyDocument(deps.taxonomy);
  const router = Router();
  router.get('/v1/taxonomy/occupations', (req, res) => {
    res.setHeader('ETag', doc.etag);
    res.setHeader('Cache-Control', 'public, max-age=3600');
    const ifNoneMatch = req.get('if-none-match');
    if (ifNoneMatch?.split(',').some((t) => matches(t.trim(), doc.etag))) {
      res.status(304).end();
      return;
    }
    res.json(doc.body);
  });
  return router;
}

/** If-None-Match uses the weak comparison (RFC 9110 13.1.2): W/"x" matches "x". */
function matches(candidate: string, etag: string): boolean {
  return candidate === '*' || candidate.replace(/^W\//, '') === etag;
}
