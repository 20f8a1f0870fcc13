import { Router } from 'express';
import type { Settings } from '../../service/context';
import { taxonomyDocument } from '../../service/taxonomy-service';
import { ifNoneMatchMatches } from '../etag';
import { mountOperation } from '../operations';
import { checkOnlyParams } from '../../domain/filters';

/** GET /v1/taxonomy/occupations: no key, cacheable (contract §5.6). */
export function taxonomyRoutes(deps: Settings): Router {
  const doc = taxonomyDocument(deps.taxonomy);
  const router = Router();
  mountOperation(router, 'getOccupationTaxonomy', (req, res) => {
    // No parameters (contract §5.6): a name in the query is an unknown one, as everywhere.
    checkOnlyParams(req.query, []);
    res.setHeader('ETag', doc.etag);
    res.setHeader('Cache-Control', 'public, max-age=3600');
    if (ifNoneMatchMatches(req.get('if-none-match'), doc.etag)) {
      res.status(304).end();
      return;
    }
    res.json(doc.body);
  });
  return router;
}
