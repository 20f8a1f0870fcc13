import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Client } from '@opensearch-project/opensearch';
import { openPool } from './pg-pools';
import { aliasForDatabase, dropIndices } from '../../src/search/index-manager';
import { ensureDatabase } from '../../src/store/db';
import { nodeArgs } from './compiled-src';
import { TEST_CURSOR_KEYS } from './harness';
import { freePort } from '../../scripts/free-port';

// The API as `npm start` runs it (one node process, so a signal reaches the server itself; the tsx
// CLI's relay may SIGKILL a child slow to acknowledge) as a child process against the real services
// (contract §22.3: configuration, start-up, signals, exit status). It runs the run's compiled src/
// (test/support/compiled-src.ts); `{ tsx: true }` runs it exactly as `npm start` does,
// `node --import tsx src/main.ts`.

const ROOT = path.resolve(__dirname, '../..');

export interface ServerProcess {
  child: ChildProcess;
  baseUrl: string;
  /** Everything written to stderr so far (the JSON logs). */
  stderr(): string;
  /** Resolves with the exit code (or the signal's name) once the process is gone. */
  exited: Promise<number | string>;
  /** Resolves when stderr has ended: every line the process and its API processes wrote is read. */
  drained: Promise<void>;
}

export { freePort };

export interface StartOptions {
  /** Through tsx, as `npm start` runs it, instead of the run's compiled src/. */
  tsx?: boolean;
}

export async function startServer(
  env: Record<string, string | undefined>,
  options: StartOptions = {},
): Promise<ServerProcess> {
  const port = await freePort();
  const merged: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), ...env };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete merged[k];
  const args = options.tsx ? ['--import', 'tsx', 'src/main.ts'] : nodeArgs('main');
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: merged,
    stdio: 'pipe',
  });
  let err = '';
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  child.stdout?.resume();
  // 'exit' can come before the last of stderr is read: `exited` waits for the pipe's end too, at
  // most a second (a worker that outlives its primary may hold the pipe open).
  const drained = new Promise<void>((resolve) => {
    if (!child.stderr) resolve();
    else child.stderr.once('end', resolve);
  });
  const exited = new Promise<number | string>((resolve) =>
    child.on('exit', (code, signal) => {
      const status = code ?? signal ?? -1;
      void Promise.race([drained, new Promise((r) => setTimeout(r, 1000))]).then(() =>
        resolve(status),
      );
    }),
  );
  return { child, baseUrl: `http://127.0.0.1:${port}`, stderr: () => err, exited, drained };
}

/**
 * Polls /readyz every 100 ms until 200 (a refused connection costs next to nothing, and a start
 * waited 125 ms more on average at 250 ms); fails early when the process exits.
 */
export async function waitReady(server: ServerProcess, timeoutMs = 120_000): Promise<void> {
  let gone = false;
  void server.exited.then(() => (gone = true));
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (gone) throw new Error(`server exited before ready:\n${server.stderr()}`);
    const status = await fetch(`${server.baseUrl}/readyz`).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server not ready in ${timeoutMs} ms:\n${server.stderr()}`);
}

/**
 * Waits until the process has written `text` to stderr (at most `timeoutMs`, or until it exits),
 * then returns all it wrote. /readyz answering says nothing about when the log lines written
 * before it reach this process: the two come over different pipes, and on a loaded machine the
 * answer can arrive first.
 */
export async function logged(
  server: ServerProcess,
  text: string,
  timeoutMs = 30_000,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (!server.stderr().includes(text) && Date.now() < deadline) {
    if (server.child.exitCode !== null || server.child.signalCode !== null) {
      await server.exited;
      break;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return server.stderr();
}

/** A database of its own (so its own index alias), and how to drop it. */
export function scratchDatabase(): { url: string; name: string; drop(): Promise<void> } {
  const admin =
    process.env.TEST_DATABASE_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
  const name = `test_${randomBytes(6).toString('hex')}`;
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    async drop() {
      const pool = openPool({ connectionString: admin, max: 1 });
      await pool.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => undefined);
      await pool.end();
    },
  };
}

/**
 * A suite of `npm start` child processes in production mode on one scratch database of its own:
 * the settings each starts with (`production()`, `defaults` and `extra` on top), a `start` that
 * remembers the process, and the hooks that make the database first and, at the end, kill what
 * still runs and drop the database and its index.
 */
export function productionSuite(
  defaults: Record<string, string | undefined> = {},
  options: StartOptions = {},
) {
  const opensearchUrl = process.env.OPENSEARCH_URL ?? '';
  const search = new Client({ node: opensearchUrl });
  const db = scratchDatabase();
  const alias = aliasForDatabase(db.name);
  const started: ServerProcess[] = [];
  beforeAll(() => ensureDatabase(db.url));
  afterAll(async () => {
    for (const s of started) if (s.child.exitCode === null) s.child.kill('SIGKILL');
    await dropIndices(search, alias).catch(() => undefined);
    await search.close();
    await db.drop();
  });
  return {
    db,
    search,
    alias,
    started,
    production(extra: Record<string, string | undefined> = {}) {
      return {
        NODE_ENV: 'production',
        DATABASE_URL: db.url,
        OPENSEARCH_URL: opensearchUrl,
        CURSOR_SIGNING_KEYS: TEST_CURSOR_KEYS,
        REDIS_URL: undefined,
        LOG_LEVEL: 'info',
        ...defaults,
        ...extra,
      };
    },
    async start(env: Record<string, string | undefined>): Promise<ServerProcess> {
      const server = await startServer(env, options);
      started.push(server);
      return server;
    },
  };
}
