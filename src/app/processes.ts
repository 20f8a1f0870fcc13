import cluster, { type Worker } from 'node:cluster';
import type { Logger } from '../infra/logger';
import { gatherProcessMetrics } from '../infra/process-metrics';

// Several API processes on one port (API_PROCESSES > 1; docs/operations.md, "Several API processes
// per host"). Node runs JavaScript on one core, so a host whose API is the bottleneck runs one
// process per core it can give the API. The primary only supervises: it forks the processes (each
// runs server.ts exactly as a single process does: its own pools, caches, index follower and
// graceful shutdown), holds the listening socket (node:cluster hands each new connection to the
// processes in turn), replaces one that dies and, on SIGTERM or SIGINT, drains them all. It connects
// to nothing: Postgres, OpenSearch and Redis are each process's, shared between them the way
// separate instances share them (the ledger, rate limits, request ids; contract §22.5).

/** How replacements back off, and when start-up failures in a row end the primary. */
export const RESTART_LIMITS = { firstDelayMs: 250, maxDelayMs: 10_000, failuresInARow: 5 };

/** What to do once a process exited on its own: start another after a delay, or stop with a reason. */
export type AfterExit = { replaceInMs: number } | { stop: string; served: boolean };

/**
 * The primary's policy, without processes (test/unit/api-processes.test.ts). Until one process has
 * listened, the service never came up: the first failure ends everything, as a single process's
 * would (a bad setting, a taken port, a refusing upstream: its one line, exit 1). Once up, a process
 * that dies is replaced; replacements that die before listening back off, and after
 * `failuresInARow` of them the primary gives up (exit 1) rather than loop.
 */
export class RestartPolicy {
  private served = false;
  private failures = 0;

  constructor(private readonly limits = RESTART_LIMITS) {}

  /** A process is listening: the service is up, and the failures in a row start over. */
  listening(): void {
    this.served = true;
    this.failures = 0;
  }

  /** A process exited on its own; `listened`: whether it had been serving; `why`: its last word. */
  exited(listened: boolean, why: string): AfterExit {
    if (!this.served) return { stop: why, served: false };
    if (!listened) this.failures++;
    if (this.failures >= this.limits.failuresInARow) {
      return {
        stop: `API processes failed to start ${this.failures} times in a row; the last: ${why}`,
        served: true,
      };
    }
    const delay = this.limits.firstDelayMs * 2 ** this.failures;
    return { replaceInMs: Math.min(this.limits.maxDelayMs, delay) };
  }
}

/** A worker's last word when it cannot start: the line a single process would print. */
interface StartFailure {
  type: 'api-processes:start-failure';
  line: string;
}

function isStartFailure(message: unknown): message is StartFailure {
  return (
    typeof message === 'object' &&
    message !== null &&
    (message as StartFailure).type === 'api-processes:start-failure' &&
    typeof (message as StartFailure).line === 'string'
  );
}

/** The fields on every log line of a worker (which process wrote it); none for a single process. */
export function processLogFields(): Record<string, number> | undefined {
  return cluster.isWorker && cluster.worker
    ? { worker: cluster.worker.id, pid: process.pid }
    : undefined;
}

/** The single process, or the first worker: the one that runs once-per-host background work. */
export function isFirstProcess(): boolean {
  return !cluster.isWorker || cluster.worker?.id === 1;
}

/**
 * A start that failed, with its one line (or a bug's stack): a single process prints it; a worker
 * hands it to the primary, which prints one for all of them (they usually fail alike).
 */
export function reportStartFailure(line: string, exit: (code: number) => void): void {
  if (cluster.isWorker && process.send) {
    const message: StartFailure = { type: 'api-processes:start-failure', line };
    try {
      process.send(message, undefined, {}, () => exit(1));
      return;
    } catch {
      // The primary is gone: say it here.
    }
  }
  console.error(line);
  exit(1);
}

export interface PrimaryOptions {
  processes: number;
  /** SHUTDOWN_GRACE_MS: each process drains within it; the primary waits that and the release. */
  graceMs: number;
  logger: Logger;
  /** Where the one line of a start that failed goes (stderr). */
  printLine(line: string): void;
  exit(code: number): void;
  limits?: typeof RESTART_LIMITS;
}

// A process gets its grace, then up to 5 s to release its clients (infra/graceful-shutdown.ts),
// then this margin before the primary kills it.
const STOP_MARGIN_MS = 10_000;

/** Forks the API processes and supervises them until SIGTERM/SIGINT, or a start that fails. */
export function runPrimary(options: PrimaryOptions): void {
  const { processes, logger } = options;
  const policy = new RestartPolicy(options.limits);
  const live = new Map<number, Worker>();
  const listened = new Set<number>();
  const lastWords = new Map<number, string>();
  const pendingForks = new Set<NodeJS.Timeout>();
  let up = false;
  let stopping = false;
  let exitCode = 0;

  const fork = () => {
    const worker = cluster.fork();
    live.set(worker.id, worker);
  };

  cluster.on('message', (worker, message: unknown) => {
    if (isStartFailure(message)) lastWords.set(worker.id, message.line);
  });

  cluster.on('listening', (worker) => {
    if (listened.has(worker.id)) return;
    listened.add(worker.id);
    policy.listening();
    const pid = worker.process.pid;
    if (up) {
      logger.info('API process replaced', { worker: worker.id, worker_pid: pid });
    } else if (listened.size === processes) {
      up = true;
      logger.info('API processes listening', {
        processes,
        worker_pids: [...live.values()].map((w) => w.process.pid),
      });
    }
  });

  cluster.on('exit', (worker, code, signal) => {
    // Its last message may still be in the channel: decide once the channel is closed.
    if (worker.isConnected()) worker.once('disconnect', () => exited(worker, code, signal));
    else exited(worker, code, signal);
  });

  const exited = (worker: Worker, code: number | null, signal: string | null) => {
    if (!live.delete(worker.id)) return;
    if (stopping) {
      // A process still starting when the signal came ends by it; any other failure is reported.
      if (code !== 0 && signal !== 'SIGTERM') exitCode = 1;
      if (live.size === 0) finish();
      return;
    }
    const pid = worker.process.pid;
    const how = signal ? `signal ${signal}` : `code ${code}`;
    const why = lastWords.get(worker.id) ?? `API process ${pid} exited with ${how}`;
    const decision = policy.exited(listened.has(worker.id), why);
    if ('stop' in decision) {
      if (decision.served) {
        logger.error('stopping: API processes keep failing', { reason: decision.stop });
      } else options.printLine(decision.stop);
      stop('start-up failure', 1);
      return;
    }
    logger.error('API process exited; starting another', {
      worker: worker.id,
      worker_pid: pid,
      exit: how,
      in_ms: decision.replaceInMs,
    });
    const timer = setTimeout(() => {
      pendingForks.delete(timer);
      fork();
    }, decision.replaceInMs);
    pendingForks.add(timer);
  };

  const stop = (reason: string, code = 0) => {
    if (stopping) {
      logger.info('shutdown already in progress', { signal: reason });
      return;
    }
    stopping = true;
    exitCode = Math.max(exitCode, code);
    for (const timer of pendingForks) clearTimeout(timer);
    pendingForks.clear();
    if (code === 0)
      logger.info('draining every API process', { signal: reason, processes: live.size });
    // Each process drains itself (contract §22.6): readiness 503, in-flight requests finish.
    for (const worker of live.values()) worker.process.kill('SIGTERM');
    if (live.size === 0) return finish();
    setTimeout(() => {
      logger.error('API processes still running after the grace: killing them', {
        worker_pids: [...live.values()].map((w) => w.process.pid),
      });
      exitCode = 1;
      for (const worker of live.values()) worker.process.kill('SIGKILL');
    }, options.graceMs + STOP_MARGIN_MS).unref();
  };

  const finish = () => {
    if (exitCode === 0) logger.info('stopped');
    options.exit(exitCode);
  };

  // GET /metrics, answered by any process, reports all of them (infra/process-metrics.ts).
  gatherProcessMetrics(() => [...live.values()].filter((w) => listened.has(w.id)));
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  logger.info('starting API processes', { processes });
  for (let i = 0; i < processes; i++) fork();
}
