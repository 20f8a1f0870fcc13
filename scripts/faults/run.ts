import { randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import { loadavg } from 'node:os';
import { promisify } from 'node:util';
import { Pool } from 'pg';
import { bootstrap, shutdown } from '../../src/bootstrap';
import type { AppDeps } from '../../src/service/context';
import { parseEnv } from '../../src/config';
import { createLogger } from '../../src/infra/logger';
import { dropIndices } from '../../src/search/index-manager';
import { ensureDatabase } from '../../src/store/db';
import { killStartedChildren } from './procs';

// What `npm run faults` and `npm run soak` share: the checkout's local cluster, a
// database and index of the run's own (dropped at the end), and a deadline for each step so that
// a run never hangs.

const execFileAsync = promisify(execFile);

/**
 * The cluster script, run asynchronously (the load must keep running while a node restarts) and
 * bounded: the script's own waits end first, this only catches a script that never returns.
 */
export async function opensearchCluster(...args: string[]): Promise<string> {
  const { stdout } = await execFileAsync(
    'bash',
    ['scripts/opensearch-local.sh', 'cluster', ...args],
    { encoding: 'utf8', maxBuffer: 1 << 20, timeout: 900_000, killSignal: 'SIGKILL' },
  );
  return stdout.trim();
}

export interface Run {
  deps: AppDeps;
  databaseUrl: string;
  databaseName: string;
  searchUrl: string;
  /** Drops the run's index and database and releases its clients. */
  close(): Promise<void>;
}

/** A database of the run's own on the shared Postgres, its index on `searchUrl` with 1 replica. */
export async function setUpRun(
  prefix: string,
  searchUrl: string,
  cursorKeys: string,
): Promise<Run> {
  const databaseName = `${prefix}_${randomBytes(4).toString('hex')}`;
  const databaseUrl = `postgresql://postgres@127.0.0.1:5432/${databaseName}`;
  await ensureDatabase(databaseUrl);
  const env = parseEnv({
    DATABASE_URL: databaseUrl,
    OPENSEARCH_URL: searchUrl,
    OPENSEARCH_REPLICAS: '1',
    // The run's own set-up (index creation, seeding) on a busy machine; the APIs keep theirs.
    OPENSEARCH_TIMEOUT_MS: '60000',
    CURSOR_SIGNING_KEYS: cursorKeys,
    LOG_LEVEL: 'warn',
  });
  const deps = await bootstrap({ env, logger: createLogger('warn'), poolSize: 4 });
  return {
    deps,
    databaseUrl,
    databaseName,
    searchUrl,
    async close() {
      await dropIndices(deps.search, deps.alias).catch(() => undefined);
      await shutdown(deps).catch(() => undefined);
      const admin = new Pool({
        connectionString: 'postgresql://postgres@127.0.0.1:5432/postgres',
        max: 1,
      });
      await admin
        .query(`DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`)
        .catch(() => undefined);
      await admin.end();
    },
  };
}

export class StepTimeout extends Error {}

/** `work`, or a StepTimeout after `ms`: no step of a run may wait forever. */
export async function within<T>(ms: number, what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StepTimeout(`${what}: no result within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Ends the process with `code` once `cleanup` is done or `graceMs` has passed: a socket or timer
 * left open by a client library must not keep a finished run alive.
 */
export async function exitAfter(code: number, cleanup: () => Promise<void>, graceMs = 60_000) {
  await within(graceMs, 'clean-up', cleanup()).catch((err: unknown) => {
    console.error(`clean-up incomplete: ${err instanceof Error ? err.message : String(err)}`);
  });
  killStartedChildren();
  process.exit(code);
}

/** Whatever a step left waiting, the run ends by `ms`, failed, and leaves no child behind. */
export function exitAtDeadline(ms: number, what: string): void {
  setTimeout(() => {
    console.error(`${what}: the run passed its deadline of ${Math.round(ms / 60_000)} min`);
    killStartedChildren();
    process.exit(1);
  }, ms).unref();
}

/** The 1, 5 and 15 minute load averages, for the record of a run on a shared machine. */
export function loadAverage(): string {
  return loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
}

/** `--name N` from the command line, or `fallback`. */
export function numberOption(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const value = at > 0 ? Number(process.argv[at + 1]) : fallback;
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);
  return value;
}
