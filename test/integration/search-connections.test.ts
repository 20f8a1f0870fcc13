import { createHash } from 'node:crypto';
import { Client } from '@opensearch-project/opensearch';
import { SignatureV4 } from '@smithy/signature-v4';
import { aliasForDatabase, dropIndices } from '../../src/search/index-manager';
import { ensureDatabase } from '../../src/store/db';
import { cliJson } from '../support/cli';
import { TEST_CURSOR_KEYS } from '../support/harness';
import {
  basicAuthGate,
  NodeSha256,
  sigv4Gate,
  startSearchProxy,
  type SearchProxy,
} from '../support/search-proxies';
import {
  logged,
  scratchDatabase,
  startServer,
  waitReady,
  type ServerProcess,
} from '../support/server-process';
import { throwawayCa, type ThrowawayCa } from '../support/throwaway-ca';

// The API and the CLI reach the real local OpenSearch through the fronts a managed
// cluster has (TLS with a private CA, basic authentication, SigV4), in production mode; a wrong
// secret or an untrusted certificate stops start-up with one line that names the upstream and
// the reason, without a stack trace and without the secret.

jest.setTimeout(300_000);

const OPENSEARCH_URL = process.env.OPENSEARCH_URL ?? '';
const direct = new Client({ node: OPENSEARCH_URL });
const db = scratchDatabase();
const started: ServerProcess[] = [];
const proxies: SearchProxy[] = [];
let ca: ThrowawayCa;

const USER = 'search-user';
const PASSWORD = 'correct-horse-battery-staple';
const AWS_KEY = {
  accessKeyId: 'AKIATESTCONNECTIONS1',
  secretAccessKey: 'test/secret+key0123456789abcdefghij',
};
const REGION = 'eu-west-3';

/** Nothing of the machine's own search or AWS settings leaks into a child. */
function production(extra: Record<string, string | undefined>): Record<string, string | undefined> {
  return {
    NODE_ENV: 'production',
    DATABASE_URL: db.url,
    CURSOR_SIGNING_KEYS: TEST_CURSOR_KEYS,
    REDIS_URL: undefined,
    LOG_LEVEL: 'info',
    OPENSEARCH_USERNAME: undefined,
    OPENSEARCH_PASSWORD: undefined,
    OPENSEARCH_CA_FILE: undefined,
    OPENSEARCH_AWS_REGION: undefined,
    OPENSEARCH_AWS_SERVICE: undefined,
    AWS_ACCESS_KEY_ID: undefined,
    AWS_SECRET_ACCESS_KEY: undefined,
    AWS_SESSION_TOKEN: undefined,
    AWS_PROFILE: undefined,
    // The credential chain must not wait for an instance-metadata service or read real files.
    AWS_EC2_METADATA_DISABLED: 'true',
    AWS_CONFIG_FILE: '/nonexistent/aws-config',
    AWS_SHARED_CREDENTIALS_FILE: '/nonexistent/aws-credentials',
    ...extra,
  };
}

async function api(env: Record<string, string | undefined>): Promise<ServerProcess> {
  const server = await startServer(production(env));
  started.push(server);
  return server;
}

interface CliOutcome {
  code: number;
  result: Record<string, unknown>;
  stderr: string;
}

async function cli(
  env: Record<string, string | undefined>,
  ...args: string[]
): Promise<CliOutcome> {
  const { code, report, stderr } = await cliJson(args, {
    env: production({ LOG_LEVEL: 'silent', ...env }),
  });
  return { code, result: report, stderr };
}

/** `seed` (store, then bulk indexing) through the given connection settings. */
async function seedsFive(env: Record<string, string | undefined>, seed: number) {
  const seeded = await cli(env, 'seed', '--count', '5', '--seed', String(seed));
  expect(seeded.result).toMatchObject({ ok: true, sync: { indexed: 5 } });
}

/** Start-up stopped: exit 1, one line naming the upstream and the reason, no stack, no secret. */
async function refusedAtStart(server: ServerProcess, reason: string, secret?: string) {
  expect(await server.exited).toBe(1);
  const out = server.stderr();
  const lines = out.split('\n').filter((l) => l.includes('start-up failed'));
  expect(lines).toHaveLength(1);
  expect(lines[0]).toContain(`start-up failed: opensearch (`);
  expect(lines[0]).toContain(reason);
  expect(out).not.toMatch(/^\s+at /m);
  if (secret) expect(out).not.toContain(secret);
  return lines[0] ?? '';
}

function cliRefused(outcome: CliOutcome, reason: string, secret?: string) {
  expect(outcome.code).toBe(1);
  expect(outcome.result.ok).toBe(false);
  expect(String(outcome.result.error)).toMatch(/^start-up failed: opensearch \(/);
  expect(String(outcome.result.error)).toContain(reason);
  expect(outcome.stderr).not.toMatch(/^\s+at /m);
  if (secret) expect(JSON.stringify(outcome.result) + outcome.stderr).not.toContain(secret);
}

async function proxy(options: Parameters<typeof startSearchProxy>[0]) {
  const p = await startSearchProxy(options);
  proxies.push(p);
  return p;
}

async function stop(server: ServerProcess) {
  server.child.kill('SIGTERM');
  expect(await server.exited).toBe(0);
}

beforeAll(async () => {
  ca = await throwawayCa();
  await ensureDatabase(db.url);
});

afterAll(async () => {
  for (const s of started) if (s.child.exitCode === null) s.child.kill('SIGKILL');
  for (const p of proxies) await p.close();
  await dropIndices(direct, aliasForDatabase(db.name)).catch(() => undefined);
  await direct.close();
  await db.drop();
  await ca.remove();
});

describe('TLS with a private CA', () => {
  let tls: SearchProxy;
  beforeAll(async () => {
    tls = await proxy({
      upstream: OPENSEARCH_URL,
      tls: await ca.issue('search-proxy', ['IP:127.0.0.1', 'DNS:localhost']),
    });
  });

  it('trusted through OPENSEARCH_CA_FILE: the API becomes ready and the CLI seeds through it', async () => {
    const server = await api({ OPENSEARCH_URL: tls.url, OPENSEARCH_CA_FILE: ca.caFile });
    await waitReady(server);
    expect(await logged(server, `"opensearch":"${tls.url}"`)).toContain(
      `"opensearch":"${tls.url}"`,
    );
    await stop(server);

    const before = tls.forwarded;
    await seedsFive({ OPENSEARCH_URL: tls.url, OPENSEARCH_CA_FILE: ca.caFile }, 27);
    expect(tls.forwarded).toBeGreaterThan(before);
  });

  it('without the CA: start-up refused in one line (certificate), and the CLI says the same', async () => {
    const server = await api({ OPENSEARCH_URL: tls.url });
    const line = await refusedAtStart(server, 'certificate not trusted');
    expect(line).toContain('OPENSEARCH_CA_FILE');
    cliRefused(await cli({ OPENSEARCH_URL: tls.url }, 'sync'), 'certificate not trusted');
  });

  it('a certificate for another host name: refused, saying so', async () => {
    const elsewhere = await proxy({
      upstream: OPENSEARCH_URL,
      tls: await ca.issue('elsewhere', ['DNS:search.elsewhere.test']),
    });
    cliRefused(
      await cli({ OPENSEARCH_URL: elsewhere.url, OPENSEARCH_CA_FILE: ca.caFile }, 'sync'),
      'certificate does not name this host',
    );
  });
});

describe('basic authentication', () => {
  let basic: SearchProxy;
  beforeAll(async () => {
    basic = await proxy({ upstream: OPENSEARCH_URL, gate: basicAuthGate(USER, PASSWORD) });
  });

  it('credentials from the environment: the API is ready, and never logs them', async () => {
    const server = await api({
      OPENSEARCH_URL: basic.url,
      OPENSEARCH_USERNAME: USER,
      OPENSEARCH_PASSWORD: PASSWORD,
    });
    await waitReady(server);
    expect(await logged(server, '"opensearch_auth":"basic"')).toContain(
      '"opensearch_auth":"basic"',
    );
    await stop(server);
    expect(server.stderr()).not.toContain(PASSWORD);
  });

  it('credentials in the URL: the CLI syncs, and the URL it prints has none', async () => {
    const url = `http://${USER}:${encodeURIComponent(PASSWORD)}@127.0.0.1:${basic.port}`;
    const server = await api({ OPENSEARCH_URL: url });
    await waitReady(server);
    expect(await logged(server, `"opensearch":"${basic.url}"`)).toContain(
      `"opensearch":"${basic.url}"`,
    );
    await stop(server);
    expect(server.stderr()).not.toContain(PASSWORD);
    const synced = await cli({ OPENSEARCH_URL: url }, 'sync');
    expect(synced.result).toMatchObject({ ok: true });
  });

  it('a wrong password: start-up refused in one line (authentication), the password nowhere', async () => {
    const wrong = 'wrong-password-value';
    const server = await api({
      OPENSEARCH_URL: basic.url,
      OPENSEARCH_USERNAME: USER,
      OPENSEARCH_PASSWORD: wrong,
    });
    await refusedAtStart(server, 'authentication refused: HTTP 401', wrong);
    const url = `http://${USER}:${wrong}@127.0.0.1:${basic.port}`;
    cliRefused(await cli({ OPENSEARCH_URL: url }, 'sync'), 'authentication refused', wrong);
  });
});

describe('SigV4 signing (Amazon OpenSearch Service)', () => {
  let signed: SearchProxy;
  const aws = { OPENSEARCH_AWS_REGION: REGION, OPENSEARCH_AWS_SERVICE: 'es' };
  const key = {
    AWS_ACCESS_KEY_ID: AWS_KEY.accessKeyId,
    AWS_SECRET_ACCESS_KEY: AWS_KEY.secretAccessKey,
  };
  beforeAll(async () => {
    signed = await proxy({ upstream: OPENSEARCH_URL, gate: sigv4Gate(AWS_KEY, REGION, 'es') });
  });

  /** A search request signed by the AWS SDK's own signer with `secret`, then sent with `body`. */
  async function send(secret: string, signedBody: string, sentBody = signedBody) {
    const signer = new SignatureV4({
      credentials: { accessKeyId: AWS_KEY.accessKeyId, secretAccessKey: secret },
      region: REGION,
      service: 'es',
      sha256: NodeSha256,
    });
    const request = await signer.sign({
      method: 'POST',
      protocol: 'http:',
      hostname: '127.0.0.1',
      port: signed.port,
      path: '/_search',
      query: { size: '0' },
      headers: {
        host: `127.0.0.1:${signed.port}`,
        'content-type': 'application/json',
        'x-amz-content-sha256': createHash('sha256').update(signedBody).digest('hex'),
      },
      body: signedBody,
    });
    const headers = Object.fromEntries(
      Object.entries(request.headers).filter(([k]) => k !== 'host'),
    );
    return fetch(`${signed.url}/_search?size=0`, { method: 'POST', headers, body: sentBody });
  }

  it('the proxy verifies: the right key passes; a wrong key or an altered body is refused', async () => {
    const body = JSON.stringify({ query: { match_all: {} } });
    expect((await send(AWS_KEY.secretAccessKey, body)).status).toBe(200);
    const wrongKey = await send('not-the-secret-key', body);
    expect(wrongKey.status).toBe(403);
    expect(await wrongKey.json()).toEqual({
      message: expect.stringContaining('signature we calculated does not match'),
    });
    const altered = await send(
      AWS_KEY.secretAccessKey,
      body,
      body.replace('match_all', 'match_none'),
    );
    expect(altered.status).toBe(403);
  });

  it('credentials from the AWS chain: the API is ready and the CLI seeds through the signer', async () => {
    const server = await api({ OPENSEARCH_URL: signed.url, ...aws, ...key });
    await waitReady(server);
    expect(server.stderr()).toContain(`"opensearch_auth":"sigv4 (es, ${REGION})"`);
    await stop(server);
    expect(server.stderr()).not.toContain(AWS_KEY.secretAccessKey);

    const refusedBefore = signed.refused;
    await seedsFive({ OPENSEARCH_URL: signed.url, ...aws, ...key }, 28);
    expect(signed.refused).toBe(refusedBefore);
  });

  it('a wrong secret key: start-up refused in one line (signature), the key nowhere', async () => {
    const wrong = 'wrong/secret+key0123456789abcdefghijk';
    const server = await api({
      OPENSEARCH_URL: signed.url,
      ...aws,
      ...key,
      AWS_SECRET_ACCESS_KEY: wrong,
    });
    const line = await refusedAtStart(server, 'request signature refused: HTTP 403', wrong);
    expect(line).toContain('OPENSEARCH_AWS_REGION');
    cliRefused(
      await cli(
        { OPENSEARCH_URL: signed.url, ...aws, ...key, AWS_SECRET_ACCESS_KEY: wrong },
        'sync',
      ),
      'request signature refused',
      wrong,
    );
  });

  it('no credentials anywhere in the chain: the CLI says so', async () => {
    cliRefused(await cli({ OPENSEARCH_URL: signed.url, ...aws }, 'sync'), 'no AWS credentials');
  });
});
