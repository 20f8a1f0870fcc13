import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry, type Registry } from 'prom-client';

// GET /metrics with several API processes on one port (API_PROCESSES > 1, app/processes.ts): a
// scrape reaches one process, a different one each time, so one process's counters would jump
// between the processes' values. Instead the process asks the primary, which collects every
// listening process's registry over the cluster's IPC channel and answers them aggregated by
// prom-client (AggregatorRegistry.aggregate): counters and histograms summed, gauges summed
// (rate_limiter_fallback_active: how many processes limit in process), prom-client's process_*
// and nodejs_* defaults as it aggregates them. A single process serves its own registry. The
// registry is passed in, so the primary loads none of the metrics it has no use for.

const ASK_ALL = 'api-processes:metrics-request';
const ALL = 'api-processes:metrics';
const ASK_ONE = 'api-processes:registry-request';
const ONE = 'api-processes:registry';

/** How long the primary waits for one process's registry; one that is late is left out. */
const PROCESS_WAIT_MS = 1000;
/** How long a process waits for the primary's answer. */
const PRIMARY_WAIT_MS = 3000;

/** One process's registry as prom-client serialises it (getMetricsAsJSON). */
type Metrics = object[];

type Message =
  | { type: typeof ASK_ALL; id: number }
  | { type: typeof ALL; id: number; text?: string; error?: string }
  | { type: typeof ASK_ONE; id: number }
  | { type: typeof ONE; id: number; metrics: Metrics };

function isMessage(message: unknown): message is Message {
  const type = (message as { type?: unknown } | null)?.type;
  return (
    typeof message === 'object' &&
    typeof (message as { id?: unknown }).id === 'number' &&
    (type === ASK_ALL || type === ALL || type === ASK_ONE || type === ONE)
  );
}

/**
 * In the primary: answers a process's request with every listening process's metrics aggregated.
 * `listening`: the processes to ask (one still starting would not answer).
 */
export function gatherProcessMetrics(listening: () => Worker[]): void {
  let next = 0;
  const pending = new Map<number, (metrics: Metrics) => void>();
  cluster.on('message', (worker, message: unknown) => {
    if (!isMessage(message)) return;
    if (message.type === ONE) pending.get(message.id)?.(message.metrics);
    if (message.type !== ASK_ALL) return;
    const asked = listening();
    const replies = asked.map(
      (target) =>
        new Promise<Metrics | null>((resolve) => {
          const id = next++;
          const timer = setTimeout(() => {
            pending.delete(id);
            resolve(null);
          }, PROCESS_WAIT_MS);
          pending.set(id, (metrics) => {
            clearTimeout(timer);
            pending.delete(id);
            resolve(metrics);
          });
          target.send({ type: ASK_ONE, id } satisfies Message);
        }),
    );
    void Promise.all(replies)
      .then((all) => AggregatorRegistry.aggregate(all.filter((m) => m !== null)).metrics())
      .then(
        (text) => ({ type: ALL, id: message.id, text }) satisfies Message,
        (err: unknown) => ({ type: ALL, id: message.id, error: String(err) }) satisfies Message,
      )
      .then((reply) => {
        if (worker.isConnected()) worker.send(reply);
      });
  });
}

let asked = 0;
const answers = new Map<number, (reply: { text?: string; error?: string }) => void>();

/** In a process of several: answers the primary's requests for this process's registry. */
export function shareProcessMetrics(registry: Registry): void {
  if (!cluster.isWorker) return;
  process.on('message', (message: unknown) => {
    if (!isMessage(message)) return;
    if (message.type === ALL) answers.get(message.id)?.(message);
    if (message.type !== ASK_ONE) return;
    void registry.getMetricsAsJSON().then((metrics) => {
      process.send?.({ type: ONE, id: message.id, metrics } satisfies Message);
    });
  });
}

/** The text of GET /metrics: this process's registry, or every process's through the primary. */
export function metricsText(registry: Registry): Promise<string> {
  if (!cluster.isWorker || !process.send) return registry.metrics();
  const id = asked++;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      answers.delete(id);
      reject(new Error('the primary did not answer the metrics request'));
    }, PRIMARY_WAIT_MS);
    answers.set(id, (reply) => {
      clearTimeout(timer);
      answers.delete(id);
      if (reply.text !== undefined) resolve(reply.text);
      else reject(new Error(`the primary could not gather metrics: ${reply.error}`));
    });
    process.send?.({ type: ASK_ALL, id } satisfies Message);
  });
}
