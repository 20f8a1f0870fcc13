import type { NextFunction, Request, Response } from 'express';
import { sendError, unexpectedError } from '../../adapter/presenter';
import { ApiError } from '../../domain/errors';
import type { Logger } from '../../infra/logger';
import { fromExpressError } from './express-errors';
import { ClientGone } from '../../service/client-gone';

/**
 * The answer to an error that names an account (service/read-service.ts accountRefusal): the
 * error to send (a 429 when the authenticated key is over its rate) and the headers it carries.
 */
export type AccountRefusal = (
  err: ApiError,
  req: Request,
) => Promise<{ error: ApiError; headers: Record<string, string> }>;

/**
 * Every REST failure ends here (the /mcp adapter's HTTP refusals too), and goes out through the one
 * presenter (adapter/presenter.ts). An error that names an account before a Caller exists (a 403
 * from authentication, a malformed X-Request-ID beside a good key) carries that account's usage
 * headers, like every authenticated response that names an account (contract §18.2), and, when
 * its key is known, is counted against the rate limit and carries its window (contract §19.1).
 */
export function errorHandler(logger: Logger, accountRefusal: AccountRefusal) {
  return async (err: unknown, req: Request, res: Response, _next: NextFunction): Promise<void> => {
    // No one to answer: the request log has it as 499, aborted.
    if (err instanceof ClientGone) return;
    let apiError = asApiError(err, logger, req);
    if (apiError.authenticated !== undefined) {
      const refusal = await accountRefusal(apiError, req);
      res.set(refusal.headers);
      apiError = refusal.error;
    }
    sendError(res, apiError, req.requestId ?? 'unknown', logger);
  };
}

function asApiError(err: unknown, logger: Logger, req: Request): ApiError {
  if (err instanceof ApiError) return err;
  // Express's own refusals (bad percent-escapes, bodies it cannot read) are the client's fault,
  // never a 500 (contract §20.4).
  const refused = fromExpressError(err);
  if (refused) return refused;
  return unexpectedError(err, logger, 'unhandled error', { request_id: req.requestId });
}

/** contract §5.11.4: the message never echoes the path (it could carry anything, a key included). */
export function notFound(_req: Request, _res: Response, next: NextFunction): void {
  next(new ApiError('not_found', 'No such route; see /v1/openapi.json for the routes.'));
}
