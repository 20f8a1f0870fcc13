import { Router, type NextFunction, type Request, type Response } from 'express';
import type { Settings } from '../../service/context';
import { countJson } from '../../service/count-json';
import { listJsonBody } from '../../service/list-json';
import type { ReadService } from '../../service/read-service';
import { sendOutcome } from '../../adapter/presenter';
import { restCallerOf } from '../../adapter/caller';
import { ifNoneMatchMatches } from '../etag';
import { authOf, type Authenticator } from '../../adapter/authenticate';
import { isBadPathEscape } from '../middleware/express-errors';
import { mountOperation } from '../operations';

/** The authenticated REST reads (contract §5.3, §5.4, §5.5): thin adapters over the shared ReadService. */
export function opportunityRoutes(deps: Settings, auth: Authenticator, reads: ReadService): Router {
  const router = Router();
  const requireKey = auth.requireApiKey({ allowBearer: false });
  // A client that leaves before its page is charged is not charged (contract §16.1): the charged
  // reads ask, just before the charge, whether it is still there (adapter/caller.ts).
  const caller = (req: Request) => restCallerOf(req, authOf(req), deps.env);
  // If-None-Match, compared by RFC 9110's rules (http/etag.ts), for list and count.
  const revalidation = (req: Request) => {
    const field = req.get('if-none-match');
    return field === undefined ? undefined : (etag: string) => ifNoneMatchMatches(field, etag);
  };

  mountOperation(router, 'listOpportunities', requireKey, async (req, res) => {
    // A list page's records are serialized once per cached page, not per request, and a long
    // page is written from their bytes (list-json).
    sendOutcome(
      res,
      await reads.list(caller(req), { from: 'rest', query: req.query }, revalidation(req)),
      listJsonBody,
    );
  });
  mountOperation(router, 'countOpportunities', requireKey, async (req, res) => {
    // A repeated count's JSON is spliced from its kept shape (count-json).
    sendOutcome(
      res,
      await reads.count(caller(req), { from: 'rest', query: req.query }, revalidation(req)),
      countJson,
    );
  });
  // Before /:opportunity_id, so `changes` is never taken for an id (contract §12).
  mountOperation(router, 'listOpportunityChanges', requireKey, async (req, res) => {
    sendOutcome(res, await reads.changes(caller(req), req.query));
  });
  const detail = async (req: Request, res: Response, id: unknown) => {
    // contract §7.6: `fields` shapes the record; the service refuses any other parameter.
    const options =
      Object.keys(req.query).length === 0
        ? undefined
        : ({ from: 'rest', query: req.query } as const);
    sendOutcome(res, await reads.detail(caller(req), id, options));
  };
  mountOperation(router, 'getOpportunity', requireKey, (req, res) =>
    detail(req, res, req.params.opportunity_id),
  );
  router.use(
    '/v1/opportunities',
    (err: unknown, req: Request, res: Response, next: NextFunction) => {
      if (!isBadPathEscape(err)) return next(err);
      // The router could not decode the id (`/v1/opportunities/%ZZ`). It is still a detail
      // request: the key first (401 without one), then the id as sent, which is not a uuid (422
      // with the usage headers, contract §5.5, §18.2), as for any other id that is not one.
      const raw = req.path.replace(/^\/+|\/+$/g, '');
      requireKey(req, res, (authErr?: unknown) => {
        if (authErr !== undefined) return next(authErr);
        detail(req, res, raw).catch(next);
      });
    },
  );
  return router;
}
