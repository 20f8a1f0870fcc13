import type { Request } from 'express';
import { verifyMarketplaceSignature } from '../billing/marketplace';
import type { Env } from '../config';
import type { AuthContext } from '../service/auth';
import type { Caller } from '../service/read-service';

/** The Caller of an authenticated request, as REST and /mcp both establish it (contract §16.5). */
export function callerOf(req: Request, auth: AuthContext, env: Env): Caller {
  return { auth, requestId: req.requestId, marketplaceVerified: marketplaceVerified(req, env) };
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
