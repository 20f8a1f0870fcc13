import { createHash } from 'node:crypto';
import { updateAccount, type AccountStatus } from '../../src/store/account-repo';
import { createApiKey, listApiKeys, revokeApiKey } from '../../src/store/api-key-repo';
import { CACHE_TTL_MS } from '../../src/service/auth';
import { accountWithKey, manualClock, startAuthApp, type AuthApp } from '../support/auth-app';
import { createTestContext, type TestContext } from '../support/harness';

// contract §14.3 (401/403), §15.2 and §19.5, over real HTTP and the real Postgres.

let ctx: TestContext;
let app: AuthApp;
/** The same app over a clock that moves only when a test advances it. */
let timed: AuthApp;
const clock = manualClock();
/** Every secret this file creates, so that the last test can look for them in the logs. */
const secrets: string[] = [];

beforeAll(async () => {
  ctx = await createTestContext();
  app = await startAuthApp(ctx.deps);
  timed = await startAuthApp(ctx.deps, { clock });
});
afterAll(async () => {
  await app.close();
  await timed.close();
  await ctx.close();
});

async function activeKey(): Promise<{ accountId: string; key: string; keyId: string }> {
  const { accountId, key } = await accountWithKey(ctx.deps);
  secrets.push(key.key);
  return { accountId, key: key.key, keyId: key.id };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const errorOf = (code: string, requestId: string) => ({
  error: { code, message: expect.any(String), request_id: requestId },
});

describe('a valid key', () => {
  it('authenticates through X-API-Key and echoes the request id', async () => {
    const { accountId, keyId, key } = await activeKey();
    const res = await app.call('/rest', { 'X-API-Key': key, 'X-Request-ID': 'ok-1' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ account_id: accountId, key_id: keyId });
    expect(res.headers.get('x-request-id')).toBe('ok-1');
  });

  it('records last_used_at off the request path', async () => {
    const { key, keyId, accountId } = await activeKey();
    expect((await app.call('/rest', { 'X-API-Key': key })).status).toBe(200);
    let keys = await listApiKeys(ctx.deps.pool, accountId);
    for (let i = 0; i < 50 && !keys[0]?.last_used_at; i++) {
      await sleep(20);
      keys = await listApiKeys(ctx.deps.pool, accountId);
    }
    expect(keys.map((k) => k.id)).toEqual([keyId]);
    expect(keys[0]?.last_used_at).toBeInstanceOf(Date);
  });
});

describe('401', () => {
  const wellFormedUnknown = `oppk_${'A'.repeat(40)}`;
  it.each([
    ['missing_api_key', 'no header', async () => ({})],
    ['missing_api_key', 'a blank header', async () => ({ 'X-API-Key': '  ' })],
    ['invalid_api_key', 'an unknown key', async () => ({ 'X-API-Key': wellFormedUnknown })],
    ['invalid_api_key', 'a malformed key', async () => ({ 'X-API-Key': 'not-a-key' })],
    [
      'revoked_api_key',
      'a revoked key',
      async () => {
        const { key, keyId } = await activeKey();
        await revokeApiKey(ctx.deps.pool, keyId);
        return { 'X-API-Key': key };
      },
    ],
  ])('%s for %s', async (code, _what, headers) => {
    const res = await app.call('/rest', { ...(await headers()), 'X-Request-ID': `r-${code}` });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(errorOf(code, `r-${code}`));
  });
});

describe('403', () => {
  it.each<[AccountStatus, string]>([
    ['disabled', 'api_access_disabled'],
    ['suspended', 'api_access_suspended'],
    ['pending', 'plan_access_pending'],
    ['expired', 'plan_access_expired'],
  ])('an account %s gives %s', async (status, code) => {
    const billing_model =
      status === 'pending' || status === 'expired' ? 'legacy_entitlement' : 'plan';
    const { key } = await accountWithKey(ctx.deps, {
      status,
      billing_model,
      allowance_override: 10,
    });
    secrets.push(key.key);
    const res = await app.call('/rest', { 'X-API-Key': key.key, 'X-Request-ID': `f-${status}` });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(errorOf(code, `f-${status}`));
  });
});

describe('Authorization: Bearer', () => {
  it('is accepted on /mcp', async () => {
    const { key, accountId } = await activeKey();
    const res = await app.call('/mcp', { Authorization: `Bearer ${key}` });
    expect(res.status).toBe(200);
    expect(res.body.account_id).toBe(accountId);
  });

  it('is not a REST credential', async () => {
    const { key } = await activeKey();
    const res = await app.call('/rest', { Authorization: `Bearer ${key}` });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ error: { code: 'missing_api_key' } });
  });

  it('goes through the same checks on /mcp', async () => {
    const { key, keyId } = await activeKey();
    await revokeApiKey(ctx.deps.pool, keyId);
    const revoked = await app.call('/mcp', { Authorization: `Bearer ${key}` });
    expect(revoked.body).toMatchObject({ error: { code: 'revoked_api_key' } });
    const basic = await app.call('/mcp', { Authorization: 'Basic dXNlcjpwYXNz' });
    expect(basic.body).toMatchObject({ error: { code: 'missing_api_key' } });
  });
});

describe('a key in the query string', () => {
  it.each(['api_key', 'apikey', 'key', 'x-api-key', 'API_KEY'])(
    '?%s= never authenticates',
    async (name) => {
      const { key } = await activeKey();
      const res = await app.call(`/rest?${name}=${key}`);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ error: { code: 'missing_api_key' } });
      expect(String((res.body.error as { message: string }).message)).toMatch(/URL/);
      expect((await app.call(`/mcp?${name}=${key}`)).status).toBe(401);
    },
  );
});

describe('rotation and revocation', () => {
  // contract §14.4: key changes take effect within 1 s. `timed`'s key cache runs on the test's
  // clock, so "within 1 s" is one step of CACHE_TTL_MS, not a wait on the wall clock.
  it('rotates without a gap: both keys work, then the revoked one stops within 1 s', async () => {
    const { accountId, key: first, keyId: firstId } = await activeKey();
    const second = await createApiKey(ctx.deps.pool, { accountId, label: 'replacement' });
    secrets.push(second.key);
    for (const key of [first, second.key]) {
      expect((await timed.call('/rest', { 'X-API-Key': key })).body.account_id).toBe(accountId);
    }
    await revokeApiKey(ctx.deps.pool, firstId);
    expect((await timed.call('/rest', { 'X-API-Key': second.key })).status).toBe(200);
    clock.advance(CACHE_TTL_MS);
    const old = await timed.call('/rest', { 'X-API-Key': first });
    expect(old.status).toBe(401);
    expect(old.body).toMatchObject({ error: { code: 'revoked_api_key' } });
    expect((await timed.call('/rest', { 'X-API-Key': second.key })).status).toBe(200);
    // Revocation created no replacement.
    expect((await listApiKeys(ctx.deps.pool, accountId)).map((k) => k.id).sort()).toEqual(
      [firstId, second.id].sort(),
    );
  });

  it('applies an account status change within 1 s, both ways', async () => {
    const { accountId, key } = await activeKey();
    const statusAfterOneTtl = async () => {
      clock.advance(CACHE_TTL_MS);
      return (await timed.call('/rest', { 'X-API-Key': key })).status;
    };
    expect(await statusAfterOneTtl()).toBe(200);
    await updateAccount(ctx.deps.pool, accountId, { status: 'suspended' });
    expect(await statusAfterOneTtl()).toBe(403);
    await updateAccount(ctx.deps.pool, accountId, { status: 'active' });
    expect(await statusAfterOneTtl()).toBe(200);
  });
});

describe('secrecy', () => {
  it('stores only the SHA-256 of a key, and its first 12 characters as the prefix', async () => {
    const { key, keyId, accountId } = await activeKey();
    expect(key).toMatch(/^oppk_[A-Za-z0-9]{40}$/);
    const [listed] = await listApiKeys(ctx.deps.pool, accountId);
    expect(listed?.prefix).toBe(key.slice(0, 12));
    expect(Object.keys(listed ?? {})).not.toContain('key_hash');
    const { rows } = await ctx.deps.pool.query<{ row: string; key_hash: string }>(
      'SELECT row_to_json(k)::text AS row, key_hash FROM api_keys k WHERE id = $1',
      [keyId],
    );
    expect(rows[0]?.key_hash).toBe(createHash('sha256').update(key).digest('hex'));
    const all = await ctx.deps.pool.query<{ row: string }>(
      'SELECT row_to_json(k)::text AS row FROM api_keys k',
    );
    for (const secret of secrets) {
      for (const { row } of all.rows) {
        expect(row).not.toContain(secret);
        // Past the displayed prefix, no fragment of the secret is stored either.
        expect(row).not.toContain(secret.slice(12));
      }
    }
  });

  // Runs last: every request of this file has been logged by now.
  it('never logs a key or a credential header', () => {
    const lines = [...ctx.logs, ...app.logs, ...timed.logs];
    expect(app.logs.some((l) => l.includes('"credential":"[redacted]"'))).toBe(true);
    expect(secrets.length).toBeGreaterThan(10);
    for (const line of lines) {
      for (const secret of secrets) expect(line).not.toContain(secret.slice(5));
      expect(line).not.toMatch(/oppk_[A-Za-z0-9]{13,}/);
    }
  });
});
