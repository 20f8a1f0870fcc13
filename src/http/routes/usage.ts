import { Router } from 'express';
import type { Settings } from '../../service/context';
import type { ReadService } from '../../service/read-service';
import { callerOf } from '../../adapter/caller';
import { sendOutcome } from '../../adapter/presenter';
import { authOf, type Authenticator } from '../../adapter/authenticate';
import { mountOperation } from '../operations';

/**
 * contract §5.7: GET /v1/usage, the usage headers of §18.3 as one body. Key required; free;
 * counts against the rate limit; spends no request id.
 */
export function usageRoutes(deps: Settings, auth: Authenticator, reads: ReadService): Router {
  const router = Router();
  mountOperation(
    router,
    'getUsage',
    auth.requireApiKey({ allowBearer: false }),
    async (req, res) => {
      sendOutcome(res, await reads.accountUsage(callerOf(req, authOf(req), deps.env), req.query));
    },
  );
  return router;
}
