import { request } from 'node:http';
import { connect } from 'node:net';
import { openPool } from '../support/pg-pools';
import { createAccount } from '../../src/store/account-repo';
import { createApiKey } from '../../src/store/api-key-repo';
import { logged, productionSuite, waitReady } from '../support/server-process';
import { initializeMessage } from '../support/mcp-messages';
import { rawRequest } from '../support/raw-http';

// contract §22.4, §22.5, §22.6: production mode, concurrent starts and SIGTERM, with the API as
// a child process exactly as `npm start` runs it (node --import tsx src/main.ts; the other suites'
// children run the compiled src/) against the real Postgres and OpenSearch.

jest.setTimeout(240_000);

const { db, search, alias, production, start } = productionSuite({}, { tsx: true });

it('refuses to start in production without its settings, naming every missing one', async () => {
  const server = await start(
    production({ CURSOR_SIGNING_KEYS: undefined, DATABASE_URL: undefined, OPENSEARCH_URL: '' }),
  );
  expect(await server.exited).toBe(1);
  const out = server.stderr();
  for (const name of ['CURSOR_SIGNING_KEYS', 'DATABASE_URL', 'OPENSEARCH_URL'])
    expect(out).toContain(`${name}: required when NODE_ENV=production`);
  expect(out).not.toContain('opensearch-local');
});

it('two instances starting at once share one schema and one index, with no demo account', async () => {
  const [a, b] = await Promise.all([start(production()), start(production())]);
  await Promise.all([waitReady(a), waitReady(b)]);

  const pool = openPool({ connectionString: db.url, max: 1 });
  try {
    const migrations = await pool.query<{ name: string; n: string }>(
      'SELECT name, count(*) AS n FROM schema_migrations GROUP BY name',
    );
    expect(migrations.rows.length).toBeGreaterThan(0);
    expect(migrations.rows.every((r) => r.n === '1')).toBe(true);
    const accounts = await pool.query<{ n: string }>('SELECT count(*) AS n FROM accounts');
    expect(accounts.rows[0]?.n).toBe('0');
  } finally {
    await pool.end();
  }
  const indices = await search.cat.indices({ index: `${alias}__*`, format: 'json' });
  expect((indices.body as unknown[]).length).toBe(1);
  for (const s of [a, b])
    expect(await logged(s, '"mode":"production"')).toContain('"mode":"production"');

  // An absolute-form target with a bad port made Node print DEP0170 to stderr quoting the URL
  // whole, a key in it, as two lines that were not JSON: now one JSON line, the key redacted.
  const pasted = `oppk_${'D'.repeat(40)}`;
  const reply = await rawRequest(
    a.baseUrl,
    `GET http://${pasted}@x:y/v1/opportunities/count HTTP/1.1`,
  );
  expect(reply.status).toBe(404);
  const log = await logged(a, '"msg":"process warning"');
  expect(log).not.toContain(pasted);
  for (const line of log.split('\n').filter(Boolean)) expect(() => JSON.parse(line)).not.toThrow();
  expect(log).toContain('"code":"DEP0170"');

  a.child.kill('SIGTERM');
  b.child.kill('SIGTERM');
  expect(await a.exited).toBe(0);
  expect(await b.exited).toBe(0);
});

/** Whether a new TCP connection to the server is accepted. */
function accepts(baseUrl: string): Promise<boolean> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** A POST /mcp whose body is sent in two parts: in flight until `finish` is called. */
function heldRequest(baseUrl: string, key: string) {
  const body = JSON.stringify(initializeMessage('drain-test'));
  const half = Math.floor(body.length / 2);
  let status = 0;
  const held = {
    done: Promise.resolve({ status }) as Promise<{ status: number; error?: string }>,
    finish: () => {},
  };
  held.done = new Promise<{ status: number; error?: string }>((resolve) => {
    const req = request(
      `${baseUrl}/mcp`,
      {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${key}`,
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          'Content-Length': Buffer.byteLength(body),
        },
      },
      (res) => {
        status = res.statusCode ?? 0;
        res.resume();
        res.on('end', () => resolve({ status }));
        res.on('error', (e) => resolve({ status, error: e.message }));
      },
    );
    req.on('error', (e) => resolve({ status, error: e.message }));
    req.write(body.slice(0, half));
    held.finish = () => void req.end(body.slice(half));
  });
  return held;
}

async function keyFor(url: string): Promise<string> {
  const pool = openPool({ connectionString: url, max: 1 });
  try {
    const account = await createAccount(pool, { plan: 'free', name: 'drain test' });
    return (await createApiKey(pool, { accountId: account.id })).key;
  } finally {
    await pool.end();
  }
}

it('SIGTERM: readiness 503 at once, the request in flight finishes, exit 0; a second signal is harmless', async () => {
  const server = await start(production());
  await waitReady(server);
  const key = await keyFor(db.url);
  const held = heldRequest(server.baseUrl, key);
  // The request is in flight once the server has its headers; give the socket a moment.
  await new Promise((r) => setTimeout(r, 500));

  server.child.kill('SIGTERM');
  let ready: Response | undefined;
  for (let i = 0; i < 50 && !ready; i++) {
    const res = await fetch(`${server.baseUrl}/readyz`);
    if (res.status === 503) ready = res;
    else await new Promise((r) => setTimeout(r, 20));
  }
  expect(ready?.status).toBe(503);
  expect(await ready?.json()).toEqual({ status: 'shutting_down' });
  server.child.kill('SIGTERM');

  // After about a second no new connection is accepted, while the request in flight goes on: a
  // load balancer's late request is refused, not accepted and then cut at the grace's end. (It
  // was accepted for as long as the drain lasted.)
  let refused = false;
  for (let i = 0; i < 60 && !refused; i++) {
    refused = !(await accepts(server.baseUrl));
    if (!refused) await new Promise((r) => setTimeout(r, 100));
  }
  expect(refused).toBe(true);

  held.finish();
  expect(await held.done).toEqual({ status: 200 });
  expect(await server.exited).toBe(0);
  expect(server.stderr()).toContain('shutdown already in progress');
});

it('SIGTERM: a request still in flight when SHUTDOWN_GRACE_MS ends is cut, and the exit is 0', async () => {
  const server = await start(production({ SHUTDOWN_GRACE_MS: '1500' }));
  await waitReady(server);
  const key = await keyFor(db.url);
  const held = heldRequest(server.baseUrl, key);
  await new Promise((r) => setTimeout(r, 500));
  server.child.kill('SIGTERM');
  expect(await server.exited).toBe(0);
  const outcome = await held.done;
  expect(outcome.status).toBe(0);
  expect(outcome.error).toBeDefined();
  expect(server.stderr()).toContain('grace period over');
});
