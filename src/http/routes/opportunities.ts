import { Router, type NextFunction, type Request, type Response } from 'express';
import { ApiError } from '../../domain/errors';
import { verifyMarketplaceSignature } from '../../billing/marketplace';
import type { AppDeps } from '../../service/context';
import type { Caller, ReadService, Served } from '../../service/read-service';
import { authOf, type Authenticator } from '../middleware/authenticate';

/** The authenticated REST reads (contract 4.2-4.4): thin adapters over the shared ReadService. */
export function opportunityRoutes(deps: AppDeps, auth: Authenticator, reads: ReadService): Router {
  const router = Router();
  const requireKey = auth.requireApiKey({ allowBearer: false });
  const callerOf = (req: Request): Caller => ({
    auth: authOf(req),
    requestId: req.requestId,
    marketplaceVerified: verifyMarketplaceSignature(
      req.get('x-marketplace-proxy-signature'),
      req.requestId,
      deps.env.MARKETPLACE_PROXY_SECRET,
      Math.floor(Date.now() / 1000),
    ),
  });
  const send = <T>(res: Response, served: Served<T>) => {
    res.set(served.headers).json(served.body);
  };

  // decisions 8: responses to authenticated requests are never cached, errors included.
  router.use('/v1/opportunities', (_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  router.get('/v1/opportunities', requireKey, async (req, res) => {
    send(res, await reads.list(callerOf(req), { from: 'rest', query: req.query }));
  });
  router.get('/v1/opportunities/count', requireKey, async (req, res) => {
    send(res, await reads.count(callerOf(req), { from: 'rest', query: req.query }));
  });
  router.get('/v1/opportunities/:opportunity_id', requireKey, async (req, res) => {
    send(res, await reads.detail(callerOf(req), req.params.opportunity_id));
  });
  router.use(
    '/v1/opportunities',
    (err: unknown, _req: Request, _res: Response, next: NextFunction) => {
      if (err instanceof ApiError) reads.addAccountHeaders(err).then(() => next(err), next);
      else next(err);
    },
  );
  return router;
}
