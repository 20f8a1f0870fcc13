import { Router } from 'express';
import type { RateLimiting } from '../../billing/rate-limit';
import type { OpportunityIndex } from '../../search/opportunity-index';
import { addressGroup } from '../../infra/client-address';
import type { Settings } from '../../service/context';
import { previewOpportunities } from '../../service/preview-service';
import { mountOperation } from '../operations';

/** GET /v1/preview/opportunities: no key; rate limited per client address (contract §9.6). */
export function previewRoutes(
  deps: Settings,
  limits: RateLimiting,
  index: OpportunityIndex,
): Router {
  const router = Router();
  mountOperation(router, 'previewOpportunities', async (req, res) => {
    await limits.previewCheck(addressGroup(req.ip), deps.env.PREVIEW_REQUESTS_PER_MINUTE);
    res.json(await previewOpportunities(deps, index, req.query, req.requestId));
  });
  return router;
}
