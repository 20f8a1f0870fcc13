import type { NextFunction, Request, Response } from 'express';
import type { Logger } from '../../infra/logger';

/**
 * One structured line a request. Only the path is logged, never the query string (a key pasted
 * into a URL must not reach the logs) and never a header value: credentials stay out by
 * construction rather than by a redaction list.
 */
export function requestLog(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    // Read now: a router mounted on a prefix (/mcp) strips it from the request while it answers.
    const path = req.path;
    res.on('finish', () => {
      logger.info('request', {
        request_id: req.requestId,
        method: req.method,
        path,
        status: res.statusCode,
        duration_ms: Number((process.hrtime.bigint() - started) / 1000n) / 1000,
        credential: req.get('x-api-key') || req.get('authorization') ? '[redacted]' : undefined,
      });
    });
    next();
  };
}
