import { Router } from 'express';
import type { Env } from '../../config';
import { baseFromHost, publicBase } from '../../adapter/public-base';
import { llmsText } from '../llms-text';

/**
 * contract §5.8.3: GET /llms.txt, plain text, no key. Its URLs start at PUBLIC_BASE_URL, else at the
 * Host the agent used (local mode only), else they are root-relative (contract §22.2).
 */
export function llmsRoutes(env: Env): Router {
  const router = Router();
  router.get('/llms.txt', (req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=3600');
    // A text built from Host must never be served from a cache to a client that sent another.
    if (baseFromHost(env)) res.setHeader('Vary', 'Host');
    res
      .type('text/plain; charset=utf-8')
      .send(llmsText(publicBase(env, req), env.MCP_MAX_RESULT_BYTES));
  });
  return router;
}
