import { Client } from '@opensearch-project/opensearch';
import { bootstrap, shutdown } from '../../src/bootstrap';
import { parseEnv } from '../../src/config';
import { createLogger } from '../../src/infra/logger';
import { createRedisClient, readyWithin } from '../../src/infra/redis-client';
import { UpstreamRefusedError } from '../../src/infra/upstream-refusal';
import { dropIndices } from '../../src/search/index-manager';
import type { AppDeps } from '../../src/service/context';
import { createPool } from '../../src/store/db';
import { TEST_CURSOR_KEYS } from '../support/harness';
import { scratchDatabase } from '../support/server-process';
import { throwawayCa, type ThrowawayCa } from '../support/throwaway-ca';
import {
  postgresBin,
  startTlsPostgres,
  startTlsRedis,
  type TlsPostgres,
  type TlsRedis,
} from '../support/throwaway-servers';

// Postgres with sslmode and a CA file, Redis over rediss:// with a CA file and an ACL
// user, each against a server of the test's own that serves TLS with a throwaway CA (the shared
// Postgres and Redis are never reconfigured). The whole start-up (bootstrap) runs against them.

jest.setTimeout(240_000);

const OPENSEARCH_URL = process.env.OPENSEARCH_URL ?? '';
const search = new Client({ node: OPENSEARCH_URL });
const logs: string[] = [];
const logger = createLogger('info', (line) => logs.push(line));
let ca: ThrowawayCa;
const aliases: string[] = [];

beforeAll(async () => {
  ca = await throwawayCa();
});

afterAll(async () => {
  for (const alias of aliases) await dropIndices(search, alias).catch(() => undefined);
  await search.close();
  await ca.remove();
});

async function start(env: Record<string, string>): Promise<AppDeps> {
  const parsed = parseEnv({
    OPENSEARCH_URL,
    CURSOR_SIGNING_KEYS: TEST_CURSOR_KEYS,
    LOG_LEVEL: 'info',
    REDIS_TIMEOUT_MS: '5000',
    ...env,
  });
  const deps = await bootstrap({ env: parsed, logger, poolSize: 2 });
  aliases.push(deps.alias);
  return deps;
}

async function refusal(promise: Promise<unknown>): Promise<UpstreamRefusedError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UpstreamRefusedError);
  return err as UpstreamRefusedError;
}

const bin = postgresBin();
// The machine has no Postgres server binaries (a laptop using containers): said, not silent.
if (!bin)
  console.warn('store-tls: no initdb found (set PG_BIN): the Postgres TLS tests are skipped');
const describePostgres = bin ? describe : describe.skip;

describePostgres('Postgres over TLS', () => {
  let pg: TlsPostgres;
  beforeAll(async () => {
    pg = await startTlsPostgres(bin ?? '', await ca.issue('postgres', ['IP:127.0.0.1']));
  });
  afterAll(() => pg?.stop());

  const url = (user: string, db: string, query: string) =>
    `postgresql://${user}@127.0.0.1:${pg.port}/${db}?${query}`;

  it('sslmode=verify-full with DATABASE_CA_FILE: start-up creates, migrates and uses the database over TLS', async () => {
    const db = `tls_${Date.now()}`;
    const deps = await start({
      DATABASE_URL: url(`app:${pg.appPassword}`, db, 'sslmode=verify-full'),
      DATABASE_CA_FILE: ca.caFile,
    });
    try {
      const { rows } = await deps.pool.query<{ ssl: boolean; usename: string }>(
        'SELECT s.ssl, a.usename FROM pg_stat_ssl s JOIN pg_stat_activity a USING (pid) WHERE pid = pg_backend_pid()',
      );
      expect(rows[0]).toEqual({ ssl: true, usename: 'app' });
      const migrations = await deps.pool.query('SELECT count(*)::int AS n FROM schema_migrations');
      expect(migrations.rows[0].n).toBeGreaterThan(0);
    } finally {
      await shutdown(deps);
    }
    expect(logs.join('\n')).not.toContain(pg.appPassword);
  });

  it('sslmode=require without a CA encrypts without checking (libpq); verify-full without it is refused', async () => {
    const pool = createPool(url('postgres', 'postgres', 'sslmode=require'), 1);
    try {
      const { rows } = await pool.query('SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()');
      expect(rows[0]).toEqual({ ssl: true });
    } finally {
      await pool.end();
    }
    const err = await refusal(
      start({ DATABASE_URL: url('postgres', 'postgres', 'sslmode=verify-full') }),
    );
    expect(err.reason).toBe('certificate');
    expect(err.message).toMatch(
      /^start-up failed: postgres \(postgresql:\/\/127\.0\.0\.1:\d+\/postgres\): certificate not trusted: .*DATABASE_CA_FILE/,
    );
  });

  it('a wrong password, or no TLS where the server demands it: one line, no secret', async () => {
    const wrong = await refusal(
      start({
        DATABASE_URL: url('app:not-the-password', 'postgres', 'sslmode=verify-full'),
        DATABASE_CA_FILE: ca.caFile,
      }),
    );
    expect(wrong.reason).toBe('authentication');
    expect(wrong.message).toContain('password authentication failed for user "app"');
    expect(wrong.message).not.toContain('not-the-password');

    const plain = await refusal(
      start({ DATABASE_URL: url('postgres', 'postgres', 'sslmode=disable') }),
    );
    expect(plain.reason).toBe('authentication');
    expect(plain.message).toContain('no encryption');
  });
});

describe('Redis over TLS (rediss://) with an ACL user', () => {
  let redis: TlsRedis;
  const db = scratchDatabase();
  beforeAll(async () => {
    redis = await startTlsRedis(await ca.issue('redis', ['IP:127.0.0.1']), ca.caFile);
  });
  afterAll(async () => {
    await redis?.stop();
    await db.drop();
  });
  const url = (password: string) => `rediss://${redis.user}:${password}@127.0.0.1:${redis.port}`;

  it('REDIS_CA_FILE and the user from the URL: start-up connects as that user', async () => {
    const deps = await start({
      DATABASE_URL: db.url,
      REDIS_URL: url(redis.password),
      REDIS_CA_FILE: ca.caFile,
    });
    try {
      expect(deps.redis?.status).toBe('ready');
      expect(await deps.redis?.call('ACL', 'WHOAMI')).toBe('app');
    } finally {
      await shutdown(deps);
    }
    expect(logs.join('\n')).not.toContain(redis.password);
  });

  it('a wrong password stops start-up with one line naming Redis, without the password', async () => {
    const err = await refusal(
      start({ DATABASE_URL: db.url, REDIS_URL: url('not-the-password'), REDIS_CA_FILE: ca.caFile }),
    );
    expect(err.reason).toBe('authentication');
    expect(err.message).toMatch(
      /^start-up failed: redis \(rediss:\/\/127\.0\.0\.1:\d+\): authentication refused: WRONGPASS/,
    );
    expect(err.message).not.toContain('not-the-password');
  });

  it('without the CA: refused as an untrusted certificate', async () => {
    const client = createRedisClient(url(redis.password), { timeoutMs: 5000 });
    try {
      const err = await readyWithin(client, 10_000);
      expect(err?.message).toMatch(/certificate/);
    } finally {
      client.disconnect();
    }
  });
});
