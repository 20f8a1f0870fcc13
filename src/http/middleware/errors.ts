import type { NextFunction, Request, Response } from 'express';
import { ApiError, toEnvelope } from '../../domain/errors';
import type { Logger } from '../../infra/logger';
import { reportApiError } from '../../infra/api-error-report';
import { fromExpressError } from './express-errors';

/** The one place where a failure becomes the error envelope (contract 2.5, decisions 4). */
export function errorHandler(logger: Logger) {
  return (err: unknown, req: Request, res: Response, _next: NextFunction): void => {
    const apiError = asApiError(err, logger, req);
    reportApiError(apiError, logger);
    res.set(apiError.headers);
    if (apiError.retryAfter !== undefined)
      res.setHeader('Retry-After', String(apiError.retryAfter));
    res.status(apiError.status).json(toEnvelope(apiError, req.requestId ?? 'unknown'));
  };
}

function asApiError(err: unknown, logger: Logger, req: Request): ApiError {
  if (err instanceof ApiError) return err;
  // Express's own refusals (bad percent-escapes, bodies it cannot read) are the client's fault,
  // never a 500 (decisions 8).
  const refused = fromExpressError(err);
  if (refused) return refused;
  logger.error('unhandled error', {
    request_id: req.requestId,
    error: err instanceof Error ? (err.stack ?? err.message) : String(err),
  });
  return new ApiError('internal_server_error', 'An unexpected error occurred.');
}

export function notFound(req: Request, _res: Response, next: NextFunction): void {
  next(new ApiError('not_found', `No route for ${req.method} ${req.path}.`));
}
