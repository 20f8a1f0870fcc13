import { Router } from 'express';
import type { Lifecycle } from '../../infra/lifecycle';
import { readiness, type HealthProbes } from '../../service/health';

/** /healthz: the process is alive. /readyz: service/health.ts readiness, 503 unless ready. */
export function healthRoutes(probes: HealthProbes, lifecycle: () => Lifecycle | undefined): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    const ready = await readiness(probes, lifecycle());
    res.status(ready.status === 'ready' ? 200 : 503).json(ready);
  });
  return router;
}
