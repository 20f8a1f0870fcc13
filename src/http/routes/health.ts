import { Router } from 'express';
import type { AppDeps } from '../../service/context';

/** /healthz: the process is alive. /readyz: Postgres and OpenSearch both answer and the
 * process is not shutting down. */
export function healthRoutes(deps: AppDeps): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    // decisions 10: from SIGTERM on, not ready, whatever the services say.
    if (deps.lifecycle?.draining) {
      res.status(503).json({ status: 'shutting_down' });
      return;
    }
    const [postgres, opensearch] = await Promise.all([
      deps.pool.query('SELECT 1').then(
        () => true,
        () => false,
      ),
      deps.search.ping().then(
        () => true,
        () => false,
      ),
    ]);
    res.status(postgres && opensearch ? 200 : 503).json({
      status: postgres && opensearch ? 'ready' : 'unavailable',
      checks: { postgres, opensearch },
    });
  });
  return router;
}
