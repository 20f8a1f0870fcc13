import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { validationError } from '../../domain/errors';
import { runWithRequestId } from '../../infra/request-context';

// decisions 7: 1 to 128 of A-Za-z0-9._:- ; a missing id is generated (uuid).
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

declare module 'express-serve-static-core' {
  interface Request {
    requestId: string;
  }
}

export function requestId(req: Request, res: Response, next: NextFunction): void {
  const supplied = req.get('x-request-id');
  if (supplied !== undefined && !REQUEST_ID.test(supplied)) {
    // The envelope still needs an id; never echo the malformed one.
    req.requestId = randomUUID();
    res.setHeader('X-Request-ID', req.requestId);
    next(
      validationError(
        'X-Request-ID',
        'bad_format',
        'X-Request-ID must be 1 to 128 of A-Z a-z 0-9 . _ : -',
      ),
    );
    return;
  }
  req.requestId = supplied ?? randomUUID();
  res.setHeader('X-Request-ID', req.requestId);
  // Every log line of the rest of this request names it (infra/logger.ts).
  runWithRequestId(req.requestId, next);
}
