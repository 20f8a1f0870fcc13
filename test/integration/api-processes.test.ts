import { Agent, request } from 'node:http';
import { createServer, type Server } from 'node:net';
import { randomUUID } from 'node:crypto';
import { openPool } from '../support/pg-pools';
import { cliJson } from '../support/cli';
import { startGate } from '../support/tcp-forwarder';
import { newReader } from '../support/factories';
import { procStat } from '../support/proc-stat';
import {
  freePort,
  productionSuite,
  waitReady,
  type ServerProcess,
} from '../support/server-process';

// API_PROCESSES=2 (src/app/processes.ts): `npm start` as a child process runs a primary and two
// API processes on one port, against the real Postgres, OpenSearch and Redis. Which process
// answered is read from its request log line (its `pid` field): nothing new is exposed for it.

jest.setTimeout(240_000);

const { db, production, start } = productionSuite({ API_PROCESSES: '2' });

/** Waits for a log line matching `match` (the process's own event), at most `timeoutMs`. */
async function logLine(
  server: ServerProcess,
  match: (line: Record<string, unknown>) => boolean,
  timeoutMs = 60_000,
): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const text of server.stderr().split('\n')) {
      if (!text.startsWith('{')) continue;
      const line = JSON.parse(text) as Record<string, unknown>;
      if (match(line)) return line;
    }
    if (Date.now() > deadline || server.child.exitCode !== null)
      throw new Error(`no such log line:\n${server.stderr()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** /healthz requests sent to the server under test (each counted by the process it reached). */
let healthzSent = 0;
const METRICS_TOKEN = `metrics-${randomUUID()}`;

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request on `agent` (one kept-alive connection: one API process), with its own request id. */
function send(
  server: ServerProcess,
  agent: Agent,
  path: string,
  headers: Record<string, string> = {},
): Promise<Reply & { requestId: string }> {
  const requestId = `processes-${randomUUID()}`;
  if (path === '/healthz') healthzSent++;
  return new Promise((resolve, reject) => {
    const req = request(
      `${server.baseUrl}${path}`,
      { agent, headers: { ...headers, 'X-Request-ID': requestId } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (body += d));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body, requestId }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** The pid of the API process that answered a request, from its request log line. */
async function answeredBy(server: ServerProcess, requestId: string): Promise<number> {
  const line = await logLine(server, (l) => l.msg === 'request' && l.request_id === requestId);
  return Number(line.pid);
}

/** A connection of its own, and the pid of the API process it reached. */
async function connection(server: ServerProcess): Promise<{ agent: Agent; pid: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const probe = await send(server, agent, '/healthz');
  expect(probe.status).toBe(200);
  return { agent, pid: await answeredBy(server, probe.requestId) };
}

/** Fresh connections until one reaches a process other than `pid` (the primary hands them in turn). */
async function connectionOtherThan(server: ServerProcess, pid: number) {
  for (let i = 0; i < 10; i++) {
    const other = await connection(server);
    if (other.pid !== pid) return other;
    other.agent.destroy();
  }
  throw new Error(`ten connections in a row reached ${pid}`);
}

function parentOf(pid: number): number | undefined {
  return procStat(pid)?.ppid;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('two API processes on one port', () => {
  let server: ServerProcess;
  const workers = new Set<number>();

  beforeAll(async () => {
    server = await start(production({ REDIS_URL: 'redis://127.0.0.1:6379', METRICS_TOKEN }));
    await waitReady(server);
    const up = await logLine(server, (l) => l.msg === 'API processes listening');
    for (const pid of up.worker_pids as number[]) workers.add(pid);
    const seeded = await cliJson(['seed', '--count', '12', '--seed', '7'], {
      env: { ...production(), LOG_LEVEL: 'silent' },
    });
    expect(seeded.report).toMatchObject({ ok: true, sync: { indexed: 12 } });
  });

  it('answers through two different processes, both children of the one started', async () => {
    expect(workers.size).toBe(2);
    const a = await connection(server);
    const b = await connectionOtherThan(server, a.pid);
    for (const { agent, pid } of [a, b]) {
      expect(workers.has(pid)).toBe(true);
      expect(parentOf(pid)).toBe(server.child.pid);
      agent.destroy();
    }
    expect(workers.has(server.child.pid ?? 0)).toBe(false);
  });

  it('a list charged through one process is not charged again through the other (one ledger)', async () => {
    const pool = openPool({ connectionString: db.url, max: 1 });
    try {
      const reader = await newReader({ pool });
      const key = { 'X-API-Key': reader.key };
      const a = await connection(server);
      const b = await connectionOtherThan(server, a.pid);

      const first = await send(server, a.agent, '/v1/opportunities?limit=5', key);
      expect(first.status).toBe(200);
      expect(await answeredBy(server, first.requestId)).toBe(a.pid);
      expect(first.headers['x-service-new-opportunity-count']).toBe('5');

      const repeat = await send(server, b.agent, '/v1/opportunities?limit=5', key);
      expect(repeat.status).toBe(200);
      expect(await answeredBy(server, repeat.requestId)).toBe(b.pid);
      const ids = (reply: Reply) =>
        (JSON.parse(reply.body) as { data: Array<{ id: string }> }).data.map((r) => r.id);
      expect(ids(repeat)).toEqual(ids(first));
      expect(repeat.headers['x-service-new-opportunity-count']).toBe('0');
      expect(repeat.headers['x-service-opportunity-used']).toBe('5');

      const { rows } = await pool.query<{ n: string }>(
        'SELECT count(*) AS n FROM metering_deliveries WHERE account_id = $1',
        [reader.accountId],
      );
      expect(rows[0]?.n).toBe('5');
      for (const { agent } of [a, b]) agent.destroy();
    } finally {
      await pool.end();
    }
  });

  it('/metrics through either process counts the requests of both', async () => {
    const a = await connection(server);
    const b = await connectionOtherThan(server, a.pid);
    const sent = healthzSent;
    const auth = { Authorization: `Bearer ${METRICS_TOKEN}` };
    for (const { agent } of [a, b]) {
      const scrape = await send(server, agent, '/metrics', auth);
      expect(scrape.status).toBe(200);
      expect(scrape.body).toContain(
        `http_requests_total{method="GET",route="/healthz",status="200"} ${sent}\n`,
      );
      agent.destroy();
    }
  });

  it('a killed process is replaced by a new one that serves', async () => {
    const [victim] = [...workers];
    process.kill(victim as number, 'SIGKILL');
    const replaced = await logLine(server, (l) => l.msg === 'API process replaced');
    const newcomer = Number(replaced.worker_pid);
    expect(workers.has(newcomer)).toBe(false);
    expect(parentOf(newcomer)).toBe(server.child.pid);
    expect(server.stderr()).toContain(`"worker_pid":${victim},"exit":"signal SIGKILL"`);
    workers.add(newcomer);

    let reached = false;
    for (let i = 0; i < 10 && !reached; i++) {
      const c = await connection(server);
      reached = c.pid === newcomer;
      c.agent.destroy();
    }
    expect(reached).toBe(true);
  });

  it('SIGTERM drains every process and the primary exits 0, leaving no process behind', async () => {
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    // `exited` waits at most a second for the pipe's end; under a loaded run the primary's last
    // line was once still unread then. The primary exits after its API processes, so the pipe
    // ends at once; bounded all the same, so that a process left behind fails the check below
    // rather than the test's timeout.
    await Promise.race([server.drained, new Promise((r) => setTimeout(r, 30_000).unref())]);
    const stopped = server
      .stderr()
      .split('\n')
      .filter((l) => l.includes('"msg":"stopped"'));
    // Each process still running (the one killed above did not stop: it was killed), and the primary.
    expect(stopped).toHaveLength(3);
    for (const pid of workers) expect(alive(pid)).toBe(false);
  });
});

describe('a start that fails still ends with one line and exit 1', () => {
  let holder: Server;

  afterAll(
    () => new Promise<void>((resolve) => (holder ? holder.close(() => resolve()) : resolve())),
  );

  it('a port another process holds', async () => {
    const port = await freePort();
    holder = createServer();
    await new Promise<void>((resolve) => holder.listen(port, '0.0.0.0', resolve));
    const server = await start(production({ PORT: String(port) }));
    expect(await server.exited).toBe(1);
    const out = server.stderr();
    const refusals = out.split('\n').filter((l) => l.includes('already in use'));
    expect(refusals).toEqual([`port ${port} is already in use: stop what holds it, or set PORT`]);
    expect(out).not.toMatch(/^\s+at /m);
    expect(out).not.toContain('"msg":"listening"');
  });

  it('a bad API_PROCESSES: nothing is started', async () => {
    const server = await start(production({ API_PROCESSES: '0' }));
    expect(await server.exited).toBe(1);
    expect(server.stderr().trim()).toBe(
      'invalid configuration: API_PROCESSES: expected an integer from 1 to 64, or auto',
    );
  });
});

describe('once up, replacements that cannot start', () => {
  it('are retried with a back-off, then the primary gives up: one error line, exit 1', async () => {
    // Postgres through a gate that, once shut, refuses new connections (those open stay up).
    const gate = await startGate(5432, '127.0.0.1');
    try {
      const url = new URL(db.url);
      url.port = String(gate.port);
      const server = await start(production({ DATABASE_URL: url.toString() }));
      await waitReady(server);
      const up = await logLine(server, (l) => l.msg === 'API processes listening');
      gate.shut();
      const [victim] = up.worker_pids as number[];
      process.kill(victim as number, 'SIGKILL');

      expect(await server.exited).toBe(1);
      const lines = server.stderr().split('\n');
      const retries = lines.filter((l) =>
        l.includes('"msg":"API process exited; starting another"'),
      );
      // The victim's replacement after 250 ms, then each that never listened twice as late; the
      // fifth of those failing ends it.
      expect(retries.map((l) => (JSON.parse(l) as { in_ms: number }).in_ms)).toEqual([
        250, 500, 1000, 2000, 4000,
      ]);
      const gaveUp = lines.filter((l) =>
        l.includes('"msg":"stopping: API processes keep failing"'),
      );
      expect(gaveUp).toHaveLength(1);
      expect(gaveUp[0]).toContain('API processes failed to start 5 times in a row; the last: ');
      expect(server.stderr()).not.toContain('"msg":"API process replaced"');
      for (const pid of up.worker_pids as number[]) expect(alive(pid)).toBe(false);
    } finally {
      await gate.close();
    }
  });
});
