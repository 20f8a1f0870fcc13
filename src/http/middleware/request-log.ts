import type { NextFunction, Request, Response } from 'express';
import type { Logger } from '../../infra/logger';

/**
 * One structured line a request, answered or not. Only the path is logged, never the query string
 * (a key pasted into a URL must not reach the logs) and never a header value: credentials stay out
 * by construction rather than by a redaction list.
 */
export function requestLog(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    // Read now: a router mounted on a prefix (/mcp) strips it from the request while it answers.
    const path = req.path;
    const line = (aborted: boolean) =>
      logger.info('request', {
        request_id: req.requestId,
        method: req.method,
        path,
        // 499 (as nginx logs it): the connection closed before a status was sent.
        status: aborted && !res.headersSent ? 499 : res.statusCode,
        duration_ms: Number((process.hrtime.bigint() - started) / 1000n) / 1000,
        credential: req.get('x-api-key') || req.get('authorization') ? '[redacted]' : undefined,
        ...(aborted ? { aborted: true } : {}),
      });
    res.once('finish', () => line(false));
    // A request whose connection closed before its response was sent (the client gave up, or the
    // shutdown's grace ended) gets its line too: those are the requests one looks for.
    res.once('close', () => {
      if (!res.writableFinished) line(true);
    });
    next();
  };
}
