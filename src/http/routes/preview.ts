import { Router } from 'express';
import { ApiError } from '../../domain/errors';
import { Limiter } from '../../infra/limiter';
import type { AppDeps } from '../../service/context';
import { previewOpportunities } from '../../service/preview-service';

/** GET /v1/preview/opportunities: no key; rate limited per client address (decisions 5). */
export function previewRoutes(deps: AppDeps): Router {
  const limiter = new Limiter(deps.redis, { keyPrefix: 'preview', durationSeconds: 60 });
  const perMinute = deps.env.PREVIEW_REQUESTS_PER_MINUTE;
  const router = Router();
  router.get('/v1/preview/opportunities', async (req, res) => {
    const decision = await limiter.consume(req.ip ?? 'unknown', perMinute);
    if (!decision.allowed) {
      throw new ApiError(
        'preview_rate_limit_exceeded',
        `The anonymous preview allows ${perMinute} requests a minute; use an API key for more.`,
        undefined,
        decision.resetSeconds,
      );
    }
    res.setHeader('Cache-Control', 'no-store');
    res.json(await previewOpportunities(deps, req.query, req.requestId));
  });
  return router;
}
