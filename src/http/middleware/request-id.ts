import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { validationError, type ApiError } from '../../domain/errors';
import { HOLDS_KEY_RUN } from '../../domain/key-shape';
import { runWithRequestId } from '../../infra/request-context';

// contract §17.1: 1 to 128 of A-Za-z0-9._:- ; a missing id is generated (uuid).
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

declare module 'express-serve-static-core' {
  interface Request {
    requestId: string;
    /**
     * A refused X-Request-ID, raised once an authenticated route has checked the key
     * (adapter/authenticate.ts), so that a missing or bad key is answered first and a good one
     * gets the usage and rate-limit headers of any authenticated response.
     */
    requestIdRefusal?: ApiError;
    /** The refused id holds an API key (a pasted secret), not merely a bad character. */
    requestIdHoldsKey?: boolean;
  }
}

/** Why a supplied id is refused, or null when it is usable. */
function problemWith(supplied: string): string | null {
  if (!REQUEST_ID.test(supplied)) return 'X-Request-ID must be 1 to 128 of A-Z a-z 0-9 . _ : -';
  // contract §17.5: an id holding `oppk_` and base62 anywhere, in any case, is a pasted secret or
  // part of one, refused before anything logs or stores it. It is also exactly what the log would
  // redact (domain/key-shape.ts): an accepted id is logged as sent, so `grep <id>` finds it (an
  // id such as `trace-oppk_abc1` was answered as sent and logged as `trace-oppk_[redacted]`).
  if (HOLDS_KEY_RUN.test(supplied)) {
    return 'X-Request-ID looks like an API key: send the key in X-API-Key, never as a request id.';
  }
  return null;
}

export function requestId(req: Request, res: Response, next: NextFunction): void {
  const supplied = req.get('x-request-id');
  // Node joins a header sent twice with ", ", which the format refuses: named as repeated instead.
  const repeated = (req.headersDistinct['x-request-id']?.length ?? 0) > 1;
  const problem = supplied === undefined ? null : problemWith(supplied);
  // A refused id is never echoed (nor logged): the envelope gets a fresh one.
  req.requestId = problem !== null ? randomUUID() : (supplied ?? randomUUID());
  res.setHeader('X-Request-ID', req.requestId);
  // Held back, not refused here: an authenticated route checks its key first and then refuses it
  // (adapter/authenticate.ts); every other route refuses it before it runs (app/create-app.ts).
  if (problem !== null) {
    req.requestIdRefusal = repeated
      ? validationError('X-Request-ID', 'repeated', 'X-Request-ID is sent more than once.')
      : validationError('X-Request-ID', 'bad_format', problem);
    req.requestIdHoldsKey = HOLDS_KEY_RUN.test(supplied ?? '');
  }
  // Every log line of the rest of this request names it (infra/logger.ts).
  runWithRequestId(req.requestId, next);
}

/** The health probes: answered whatever an intermediary wrote in X-Request-ID. */
const HEALTH_PATH = /^\/(healthz|readyz)\/?$/i;

/**
 * The refusal of a malformed X-Request-ID on a route past the authenticated ones, or undefined.
 * The health probes and unknown paths spend no id and answer whatever an intermediary wrote there
 * (a load balancer's trace id, `Root=1-...`, failed its health checks with 422, and an unknown
 * path was 422, not 404); a key pasted as an id is refused everywhere (contract §17.5).
 * `known` says whether the app serves the path (http/middleware/methods.ts).
 */
export function requestIdRefusalOf(
  req: Request,
  known: (path: string) => boolean,
): ApiError | undefined {
  if (req.requestIdRefusal === undefined || req.requestIdHoldsKey) return req.requestIdRefusal;
  return HEALTH_PATH.test(req.path) || !known(req.path) ? undefined : req.requestIdRefusal;
}
