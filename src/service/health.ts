import type { Lifecycle } from '../infra/lifecycle';

/** One upstream's answer to "are you there?" (store/db.ts pingPostgres, search/client.ts pingSearch). */
export type Probe = () => Promise<boolean>;

export interface HealthProbes {
  postgres: Probe;
  opensearch: Probe;
}

export type Readiness =
  | { status: 'shutting_down' }
  | { status: 'ready' | 'unavailable'; checks: { postgres: boolean; opensearch: boolean } };

/**
 * /readyz (decisions 10): from SIGTERM on, not ready whatever the services say; otherwise ready
 * when Postgres and OpenSearch both answer. The probes are capabilities, so a test can stand in.
 */
export async function readiness(
  probes: HealthProbes,
  lifecycle: Lifecycle | undefined,
): Promise<Readiness> {
  if (lifecycle?.draining) return { status: 'shutting_down' };
  const [postgres, opensearch] = await Promise.all([probes.postgres(), probes.opensearch()]);
  return {
    status: postgres && opensearch ? 'ready' : 'unavailable',
    checks: { postgres, opensearch },
  };
}

/**
 * Probes that answer from flags, for a composition without the real services (the fast suite): a
 * test flips a flag to see /readyz turn unavailable.
 */
export function flagProbes(up: { postgres: boolean; opensearch: boolean }): HealthProbes {
  return { postgres: async () => up.postgres, opensearch: async () => up.opensearch };
}
