import {
  AccountInputError,
  createAccount,
  getAccount,
  UnknownAccountError,
  updateAccount,
} from '../../src/store/account-repo';
import { createApiKey, generateApiKey, revokeApiKey } from '../../src/store/api-key-repo';
import { CACHE_TTL_MS } from '../../src/service/auth';
import { manualClock, startAuthApp, type AuthApp } from '../support/auth-app';
import { cliJson } from '../support/cli';
import { createTestContext, type TestContext } from '../support/harness';

// contract §14.2, §15 (accounts, keys) and §22.9 (the admin CLI), against the real Postgres.

// Each CLI run is a child process of 1 to 2 s (the project-level testTimeout is not applied).
jest.setTimeout(60_000);

let ctx: TestContext;
let app: AuthApp;
const clock = manualClock();
beforeAll(async () => {
  ctx = await createTestContext();
  app = await startAuthApp(ctx.deps, { clock });
});
afterAll(async () => {
  await app.close();
  await ctx.close();
});

/** The real CLI with --json: its exit status and the one JSON object it printed. */
async function cli(...args: string[]): Promise<{ code: number; out: Record<string, unknown> }> {
  const { code, report } = await cliJson(args, { databaseUrl: ctx.databaseUrl });
  return { code, out: report };
}

describe('admin CLI', () => {
  it('creates and updates an account, then creates, lists and revokes its key', async () => {
    const created = await cli(
      ...['account', 'create', '--plan', 'builder', '--billing-model', 'legacy_entitlement'],
      ...['--allowance', '500', '--rps', '4', '--page-size', '50', '--name', 'Acme Ltd'],
      ...['--balance-millicents', '123456', '--period-start', '2025-01-01T00:00:00Z'],
      ...['--period-end', '2025-02-01T00:00:00Z'],
    );
    expect(created.code).toBe(0);
    const id = String(created.out.id);
    expect(created.out).toMatchObject({
      name: 'Acme Ltd',
      plan: 'builder',
      billing_model: 'legacy_entitlement',
      status: 'active',
      balance_millicents: 123456,
      allowance_override: 500,
      rps_override: 4,
      page_size_override: 50,
      period_start: '2025-01-01T00:00:00.000Z',
      period_end: '2025-02-01T00:00:00.000Z',
    });

    const updated = await cli('account', 'update', id, '--status', 'suspended', '--rps', 'none');
    expect(updated.out).toMatchObject({
      id,
      status: 'suspended',
      rps_override: null,
      plan: 'builder',
    });
    await updateAccount(ctx.deps.pool, id, { status: 'active' });

    // Credit is added, never set (contract §16.3); a top-up of nothing is a usage error.
    const topped = await cli('account', 'top-up', id, '--millicents', '1000');
    expect(topped.code).toBe(0);
    expect(topped.out).toMatchObject({ id, balance_millicents: 124456 });
    expect((await cli('account', 'top-up', id, '--millicents', '0')).code).toBe(2);
    expect((await cli('account', 'top-up', id)).code).toBe(2);

    const key = await cli('key', 'create', '--account', id, '--label', 'ci', '--rps', '2');
    expect(key.code).toBe(0);
    const secret = String(key.out.key);
    expect(secret).toMatch(/^oppk_[A-Za-z0-9]{40}$/);
    expect(key.out).toMatchObject({ label: 'ci', account_id: id, prefix: secret.slice(0, 12) });
    const auth = await app.call('/rest', { 'X-API-Key': secret });
    expect(auth.body).toMatchObject({ account_id: id, key_id: key.out.id });

    const listed = await cli('key', 'list', '--account', id);
    expect(listed.out).toMatchObject({ account_id: id });
    expect(listed.out.keys).toEqual([
      expect.objectContaining({ id: key.out.id, label: 'ci', prefix: secret.slice(0, 12), rps: 2 }),
    ]);
    expect(JSON.stringify(listed.out)).not.toContain(secret.slice(12));

    const revoked = await cli('key', 'revoke', String(key.out.id));
    expect(revoked.out).toMatchObject({ id: key.out.id, revoked_at: expect.any(String) });
    // contract §14.4: within 1 s, here one step of the key cache's injected clock.
    clock.advance(CACHE_TTL_MS);
    expect((await app.call('/rest', { 'X-API-Key': secret })).body).toMatchObject({
      error: { code: 'revoked_api_key' },
    });
  });

  // The store's commands never wait for the search engine: an operator reads an account's usage
  // while OpenSearch is down (or, on a checkout without OPENSEARCH_URL, never started).
  it('reads usage with the search engine unreachable', async () => {
    const created = await cli('account', 'create', '--plan', 'builder');
    const { code, report } = await cliJson(['usage', '--account', String(created.out.id)], {
      databaseUrl: ctx.databaseUrl,
      env: { OPENSEARCH_URL: 'http://127.0.0.1:1' },
    });
    expect({ code, report }).toMatchObject({
      code: 0,
      report: { ok: true, account_id: created.out.id, plan: 'builder', used: 0 },
    });
  });

  // The store's commands refuse an unreachable Postgres with the API's start-up line (what, where,
  // what to check); they printed the driver's "connect ECONNREFUSED" alone.
  it('an unreachable Postgres: the start-up line, exit 1', async () => {
    const { code, report } = await cliJson(['account', 'create', '--plan', 'free'], {
      databaseUrl: 'postgresql://postgres@127.0.0.1:1/nowhere',
    });
    expect(code).toBe(1);
    expect(String(report.error)).toMatch(
      /^start-up failed: postgres \(postgresql:\/\/127\.0\.0\.1:1\/nowhere\): connection refused: .*; check that it runs and that DATABASE_URL names its host and port$/,
    );
  });

  it('refuses a bad flag value with exit status 2 and a JSON error', async () => {
    const res = await cli('account', 'create', '--plan', 'gold');
    expect(res).toEqual({ code: 2, out: { ok: false, error: expect.stringMatching(/--plan/) } });
  });
});

describe('admin CLI words that look like help', () => {
  // `help` and `-h` anywhere used to print the help text and exit 0: a script saw success and no
  // key was made.
  it('takes "help" and -h as the values they are (a name, a label)', async () => {
    const account = await cli('account', 'create', '--plan', 'free', '--name', 'help');
    expect(account.code).toBe(0);
    expect(account.out.name).toBe('help');
    const key = await cli('key', 'create', '--account', String(account.out.id), '--label', '-h');
    expect(key.code).toBe(0);
    expect(String(key.out.key)).toMatch(/^oppk_/);
  });

  it("takes account periods by the API's date rule (contract §6.5), not whatever Date takes", async () => {
    for (const [start, end] of [
      ['1', '2'],
      ['2026-02-30', '2026-03-30'],
      ['2026-12-01', '2027-01-01T00:00'],
      ['March 1, 2026', '2026-04-01'],
    ]) {
      const res = await cli(
        'account',
        'create',
        '--plan',
        'builder',
        '--period-start',
        start,
        '--period-end',
        end,
      );
      expect(res.code).toBe(2);
      expect(String(res.out.error)).toMatch(/ISO 8601/);
    }
    const ok = await cli(
      'account',
      'create',
      '--plan',
      'builder',
      '--period-start',
      '2026-12-01',
      '--period-end',
      '2027-01-01T01:00:00+01:00',
    );
    expect(ok.code).toBe(0);
    expect(ok.out).toMatchObject({
      period_start: '2026-12-01T00:00:00.000Z',
      period_end: '2027-01-01T00:00:00.000Z',
    });
  });

  it('checks --seed before anything is set up: a bad one creates no database', async () => {
    const url = new URL(ctx.databaseUrl);
    const name = `test_neverseeded_${Date.now()}`;
    url.pathname = `/${name}`;
    for (const seed of ['abc', '9007199254740993']) {
      const { code, report } = await cliJson(['seed', '--count', '5', '--seed', seed], {
        databaseUrl: url.toString(),
      });
      expect(code).toBe(2);
      expect(String(report.error)).toMatch(/--seed must be a non-negative integer/);
    }
    const { rows } = await ctx.deps.pool.query('SELECT 1 FROM pg_database WHERE datname = $1', [
      name,
    ]);
    expect(rows).toEqual([]);
  });
});

describe('account repository', () => {
  it('starts a new account on Free, plan-billed and active', async () => {
    const account = await createAccount(ctx.deps.pool);
    expect(account).toMatchObject({
      plan: { id: 'free', opportunity_allowance: 1000, requests_per_second: 2, max_page_size: 25 },
      billing_model: 'plan',
      status: 'active',
      balance_millicents: 0,
      period_start: null,
    });
  });

  it('reads the bigint balance as a number', async () => {
    const account = await createAccount(ctx.deps.pool, { balance_millicents: 2 ** 40 + 7 });
    expect((await getAccount(ctx.deps.pool, account.id))?.balance_millicents).toBe(2 ** 40 + 7);
  });

  it.each([
    [{ plan: 'gold' }],
    [{ status: 'frozen' }],
    [{ billing_model: 'prepaid' }],
    [{ page_size_override: 101 }],
    [{ rps_override: 0 }],
    [{ balance_millicents: -1 }],
    [{ period_start: new Date('2025-01-01') }],
    [{ period_start: new Date('2025-02-01'), period_end: new Date('2025-01-01') }],
  ])('refuses %j', async (input) => {
    await expect(createAccount(ctx.deps.pool, input as never)).rejects.toThrow(AccountInputError);
  });

  // pending and expired are a legacy entitlement's states: a plan-billed account set pending was
  // answered 403 "the entitlement of this account is not active yet".
  it.each([[{ status: 'pending' }], [{ status: 'expired', billing_model: 'legacy_wallet' }]])(
    'refuses %j (a status of another billing model)',
    async (input) => {
      await expect(createAccount(ctx.deps.pool, input as never)).rejects.toThrow(
        'status pending and expired belong to billing model legacy_entitlement',
      );
    },
  );

  it('refuses an update that leaves pending or expired on another billing model, changing nothing', async () => {
    const plan = await createAccount(ctx.deps.pool, { plan: 'builder' });
    await expect(
      updateAccount(ctx.deps.pool, plan.id, { status: 'pending', balance_millicents: 500 }),
    ).rejects.toThrow(AccountInputError);
    expect(await getAccount(ctx.deps.pool, plan.id)).toMatchObject({
      status: 'active',
      balance_millicents: 0,
    });
    const legacy = await createAccount(ctx.deps.pool, {
      billing_model: 'legacy_entitlement',
      status: 'expired',
    });
    await expect(
      updateAccount(ctx.deps.pool, legacy.id, { billing_model: 'plan' }),
    ).rejects.toThrow(AccountInputError);
    expect(await updateAccount(ctx.deps.pool, legacy.id, { status: 'active' })).toMatchObject({
      status: 'active',
    });
    expect(await updateAccount(ctx.deps.pool, legacy.id, { billing_model: 'plan' })).toMatchObject({
      billing_model: 'plan',
    });
  });

  it('answers null for an unknown account and refuses a key for it', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect(await getAccount(ctx.deps.pool, 'not-a-uuid')).toBeNull();
    expect(await updateAccount(ctx.deps.pool, unknown, { status: 'active' })).toBeNull();
    // Well-formed but unknown: exit status 1, as for every command reading an account.
    await expect(createApiKey(ctx.deps.pool, { accountId: unknown })).rejects.toThrow(
      UnknownAccountError,
    );
  });

  it('revokes idempotently, keeping the first time', async () => {
    const account = await createAccount(ctx.deps.pool);
    const key = await createApiKey(ctx.deps.pool, { accountId: account.id });
    const first = await revokeApiKey(ctx.deps.pool, key.id);
    expect(first).toBeInstanceOf(Date);
    expect(await revokeApiKey(ctx.deps.pool, key.id)).toEqual(first);
    expect(await revokeApiKey(ctx.deps.pool, '00000000-0000-4000-8000-000000000000')).toBeNull();
  });

  it('generates distinct oppk_ keys of 40 base62 characters', () => {
    const keys = Array.from({ length: 2000 }, generateApiKey);
    expect(new Set(keys).size).toBe(keys.length);
    for (const key of keys) expect(key).toMatch(/^oppk_[A-Za-z0-9]{40}$/);
  });
});
