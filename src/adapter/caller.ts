import type { Request } from 'express';
import { verifyMarketplaceSignature } from '../billing/marketplace';
import type { Env } from '../config';
import type { AuthContext } from '../service/auth';
import type { Caller } from '../service/read-service';

/** The Caller of an authenticated request, as REST and /mcp both establish it (contract §16.5). */
export function callerOf(req: Request, auth: AuthContext, env: Env): Caller {
  return { auth, requestId: req.requestId, marketplaceVerified: marketplaceVerified(req, env) };
}

/**
 * A REST Caller that knows when its client has left: the response closed before it was written
 * means the connection is gone, and a page not charged yet is then not charged (contract §16.1).
 * Read from the response's state when the charge is about to go, not from its 'close' event: a
 * client that left at once (while the key was looked up) had closed before a listener could be
 * added, and was charged.
 */
export function restCallerOf(req: Request, auth: AuthContext, env: Env): Caller {
  const res = req.res;
  const gone = {
    get aborted(): boolean {
      if (res === undefined || res.writableFinished) return false;
      return res.closed || res.destroyed || req.socket.destroyed;
    },
  };
  return { ...callerOf(req, auth, env), gone };
}

/** Whether the request is a verified marketplace-proxy one (contract §18.5), answered or refused. */
export function marketplaceVerified(req: Request, env: Env): boolean {
  return verifyMarketplaceSignature(
    req.get('x-marketplace-proxy-signature'),
    req.requestId,
    env.MARKETPLACE_PROXY_SECRET,
    Math.floor(Date.now() / 1000),
  );
}
