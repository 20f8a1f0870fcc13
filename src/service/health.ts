import type { Lifecycle } from '../infra/lifecycle';

/** One upstream's answer to "are you there?" (store/db.ts pingPostgres, search/client.ts pingSearch). */
export type Probe = () => Promise<boolean>;

export interface HealthProbes {
  postgres: Probe;
  opensearch: Probe;
  /**
   * contract §19.11: the least time between two calls of a probe (default 1000 ms): /readyz is
   * anonymous, so its rate must never become the services' rate. Probes that cost nothing (the
   * fast suite's flags) say 0.
   */
  minIntervalMs?: number;
}

/** Default spacing of probe calls (contract §19.11: at most once a second per process). */
export const PROBE_INTERVAL_MS = 1000;

/**
 * How long /readyz waits for a probe before it counts the service as down (contract §22.6). A
 * probe's own call has the upstream's deadline (OPENSEARCH_TIMEOUT_MS, 5 s by default), and a
 * readiness check that takes longer than a load balancer's timeout (often 1-2 s) answers nothing
 * it can use: a hung engine held /readyz for 5 s. The call goes on; the next probe, a second
 * later, does not wait for it, so /readyz is ready again a second after the upstream is.
 */
export const PROBE_DEADLINE_MS = 1000;

/**
 * The probes, each called at most once per `minIntervalMs` whatever the rate of /readyz: callers
 * in between share the last call's answer (its promise, so concurrent callers share one call).
 * A probe that throws, or has not answered within `deadlineMs`, counts as down.
 */
export function throttledProbes(
  probes: HealthProbes,
  now: () => number = Date.now,
  deadlineMs: number = PROBE_DEADLINE_MS,
): HealthProbes {
  const interval = probes.minIntervalMs ?? PROBE_INTERVAL_MS;
  const throttle = (probe: Probe): Probe => {
    let last: { at: number; answer: Promise<boolean> } | undefined;
    return () => {
      const at = now();
      if (last === undefined || at - last.at >= interval || at < last.at) {
        last = {
          at,
          answer: withinDeadline(
            probe().catch(() => false),
            deadlineMs,
          ),
        };
      }
      return last.answer;
    };
  };
  return {
    postgres: throttle(probes.postgres),
    opensearch: throttle(probes.opensearch),
    minIntervalMs: interval,
  };
}

/** The call's answer, or false once `ms` have passed without one. */
function withinDeadline(call: Promise<boolean>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
    timer.unref();
  });
  return Promise.race([call, late]).finally(() => clearTimeout(timer));
}

export type Readiness =
  | { status: 'shutting_down' }
  | { status: 'ready' | 'unavailable'; checks: { postgres: boolean; opensearch: boolean } };

/**
 * /readyz (contract §22.6): from SIGTERM on, not ready whatever the services say; otherwise ready
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
  return {
    postgres: async () => up.postgres,
    opensearch: async () => up.opensearch,
    minIntervalMs: 0,
  };
}
