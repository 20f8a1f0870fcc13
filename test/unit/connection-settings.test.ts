import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigError, parseEnv } from '../../src/config';
import { searchAuthentication, searchConnection } from '../../src/config/connections';
import { redact, withoutCredentials } from '../../src/infra/redact';
import { refusalReason, upstreamRefused } from '../../src/infra/upstream-refusal';
import { pgConnection } from '../../src/store/pg-tls';

// The settings for managed services, what they refuse, how the driver's TLS follows
// libpq's sslmode, and how a refused connection is named on the start-up line.

const dir = mkdtempSync(path.join(tmpdir(), 'connection-settings-'));
const pem = path.join(dir, 'ca.pem');
writeFileSync(pem, '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PROD = {
  NODE_ENV: 'production',
  CURSOR_SIGNING_KEYS: `k=${'x'.repeat(32)}`,
  DATABASE_URL: 'postgresql://db/x',
};

function problems(env: Record<string, string>): string {
  try {
    parseEnv(env);
    return '';
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
}

describe('production and plain http', () => {
  it('refuses plain http to a remote OpenSearch, naming the host, unless told otherwise', () => {
    const url = 'https://a.example:9200,http://10.0.0.5:9200';
    expect(problems({ ...PROD, OPENSEARCH_URL: url })).toContain(
      'OPENSEARCH_URL: plain http to 10.0.0.5:9200 in production',
    );
    expect(problems({ ...PROD, OPENSEARCH_URL: url, OPENSEARCH_ALLOW_INSECURE: 'true' })).toBe('');
  });

  it.each(['http://127.0.0.1:9200', 'http://localhost:9200', 'http://[::1]:9200', 'https://x:1'])(
    'accepts %s',
    (url) => expect(problems({ ...PROD, OPENSEARCH_URL: url })).toBe(''),
  );

  it('a local start accepts plain http anywhere', () => {
    expect(problems({ OPENSEARCH_URL: 'http://10.0.0.5:9200' })).toBe('');
  });

  it('OPENSEARCH_ALLOW_INSECURE is true or false', () => {
    expect(problems({ OPENSEARCH_ALLOW_INSECURE: 'yes' })).toContain('OPENSEARCH_ALLOW_INSECURE');
  });
});

describe('combinations that cannot work', () => {
  it.each([
    [{ OPENSEARCH_USERNAME: 'u' }, 'OPENSEARCH_USERNAME, OPENSEARCH_PASSWORD: set both or neither'],
    [
      { OPENSEARCH_URL: 'https://u:p@h:9200', OPENSEARCH_USERNAME: 'u', OPENSEARCH_PASSWORD: 'p' },
      'OPENSEARCH_URL carries credentials too',
    ],
    [{ OPENSEARCH_AWS_SERVICE: 'aoss' }, 'OPENSEARCH_AWS_SERVICE: needs OPENSEARCH_AWS_REGION'],
    [{ OPENSEARCH_AWS_SERVICE: 'lambda' }, 'OPENSEARCH_AWS_SERVICE'],
    [
      { OPENSEARCH_AWS_REGION: 'eu-west-1', OPENSEARCH_USERNAME: 'u', OPENSEARCH_PASSWORD: 'p' },
      'SigV4 signing and basic credentials exclude each other',
    ],
    [{ OPENSEARCH_CA_FILE: '/nonexistent/ca.pem' }, 'OPENSEARCH_CA_FILE: cannot read this file'],
    [
      { OPENSEARCH_CA_FILE: pem, OPENSEARCH_URL: 'http://h:9200' },
      'OPENSEARCH_CA_FILE: no node of OPENSEARCH_URL is https',
    ],
    [{ REDIS_CA_FILE: pem, REDIS_URL: 'redis://h:6379' }, 'REDIS_CA_FILE: needs a rediss://'],
    [
      { DATABASE_URL: 'postgresql://h/db?sslmode=prefer' },
      'sslmode=prefer is not supported (the driver cannot fall back between TLS and plain)',
    ],
    // Not a mode at all: the fallback was given as its reason.
    [
      { DATABASE_URL: 'postgresql://h/db?sslmode=bogus' },
      'sslmode=bogus is not supported (not an sslmode)',
    ],
    [
      { DATABASE_URL: 'postgresql://h/db?sslmode=disable', DATABASE_CA_FILE: pem },
      'DATABASE_CA_FILE: DATABASE_URL says sslmode=disable',
    ],
  ])('%j', (env, message) => expect(problems(env)).toContain(message));

  it('what works is accepted and becomes the search client settings', () => {
    const env = parseEnv({
      OPENSEARCH_URL: 'https://search.example:443',
      OPENSEARCH_CA_FILE: pem,
      OPENSEARCH_AWS_REGION: 'eu-west-1',
      OPENSEARCH_AWS_SERVICE: 'aoss',
      REDIS_URL: 'rediss://user:pw@cache.example:6380',
      REDIS_CA_FILE: pem,
      DATABASE_URL: 'postgresql://u:p@db.example/app?sslmode=verify-full',
      DATABASE_CA_FILE: pem,
    });
    expect(searchConnection(env)).toEqual({
      caFile: pem,
      aws: { region: 'eu-west-1', service: 'aoss' },
    });
    expect(searchAuthentication(env)).toBe('sigv4 (aoss, eu-west-1)');
    const basic = parseEnv({ OPENSEARCH_USERNAME: 'u', OPENSEARCH_PASSWORD: 'p' });
    expect(searchConnection(basic)).toEqual({ basic: { username: 'u', password: 'p' } });
    expect(searchAuthentication(parseEnv({ OPENSEARCH_URL: 'https://u:p@h:1' }))).toBe('basic');
    expect(searchAuthentication(parseEnv({}))).toBe('none');
  });
});

describe('Postgres TLS follows libpq sslmode', () => {
  const url = 'postgresql://u:p@db.example:5432/app';
  it('no sslmode, no CA: as before (the driver default)', () => {
    expect(pgConnection(url)).toEqual({ connectionString: url });
  });
  it('disable: plain', () => {
    expect(pgConnection(`${url}?sslmode=disable`)).toEqual({ connectionString: url, ssl: false });
  });
  it('require: encrypted, unchecked; with a CA, the chain is checked but not the name', () => {
    expect(pgConnection(`${url}?sslmode=require`).ssl).toEqual({ rejectUnauthorized: false });
    const withCa = pgConnection(`${url}?sslmode=require`, pem).ssl;
    expect(withCa).toMatchObject({ ca: expect.stringContaining('BEGIN CERTIFICATE') });
    expect(withCa).not.toHaveProperty('rejectUnauthorized');
    expect(withCa).toHaveProperty('checkServerIdentity');
  });
  it('verify-ca checks the chain; verify-full the chain and the name', () => {
    expect(pgConnection(`${url}?sslmode=verify-ca`, pem).ssl).toHaveProperty('checkServerIdentity');
    const full = pgConnection(`${url}?sslmode=verify-full&sslrootcert=${pem}`);
    expect(full).toEqual({ connectionString: url, ssl: { ca: expect.any(String) } });
  });
  it('a CA alone means verify-full; sslrootcert=system means the platform CAs', () => {
    expect(pgConnection(url, pem).ssl).toEqual({ ca: expect.any(String) });
    expect(pgConnection(`${url}?sslmode=verify-full&sslrootcert=system`).ssl).toEqual({});
  });
  it('keeps other parameters for the driver', () => {
    const out = pgConnection(`${url}?application_name=api&sslmode=require`);
    expect(out.connectionString).toBe(`${url}?application_name=api`);
  });
});

describe('refusals, named', () => {
  const tls = (code: string, message: string) => Object.assign(new Error(message), { code });
  const response = (statusCode: number, body: unknown) =>
    Object.assign(new Error('Response Error'), {
      name: 'ResponseError',
      meta: { statusCode, body },
    });

  it.each([
    [
      tls('SELF_SIGNED_CERT_IN_CHAIN', 'self-signed certificate in certificate chain'),
      'certificate',
    ],
    [
      tls('ERR_TLS_CERT_ALTNAME_INVALID', "Hostname/IP does not match certificate's altnames"),
      'hostname',
    ],
    // The OpenSearch client keeps only the message of the socket error.
    [
      Object.assign(new Error('unable to get local issuer certificate'), {
        name: 'ConnectionError',
      }),
      'certificate',
    ],
    [
      Object.assign(new Error("Hostname/IP does not match certificate's altnames: Host: x"), {
        name: 'ConnectionError',
      }),
      'hostname',
    ],
    [response(401, { error: 'Unauthorized' }), 'authentication'],
    [response(403, { message: 'no permissions' }), 'authorization'],
    [
      Object.assign(new Error('password authentication failed for user "app"'), { code: '28P01' }),
      'authentication',
    ],
    [new Error('WRONGPASS invalid username-password pair or user is disabled.'), 'authentication'],
    [new Error('The server does not support SSL connections'), 'tls'],
    [
      Object.assign(new Error('Could not load credentials from any providers'), {
        name: 'CredentialsProviderError',
      }),
      'credentials',
    ],
    [new AggregateError([tls('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:1')], ''), 'refused'],
    [new Error('relation "x" does not exist'), undefined],
    // A cluster down behind its proxy, overloaded, or a URL that is not the cluster's: one line,
    // not a bare `ResponseError: Response Error` and its stack.
    [response(503, ''), 'unavailable'],
    [response(502, 'Bad Gateway'), 'unavailable'],
    [response(429, { error: 'rejected' }), 'unavailable'],
    [response(404, ''), 'unavailable'],
    // A 400 is a request of ours the engine refused: a bug, which keeps its stack.
    [response(400, { error: { reason: 'mapper_parsing_exception' } }), undefined],
  ])('%s → %s', (err, reason) => expect(refusalReason(err)).toBe(reason));

  it('a 403 to a signed request is about the signature', () => {
    expect(refusalReason(response(403, { message: 'signature does not match' }), true)).toBe(
      'signature',
    );
  });

  it('one line: upstream, where, what, what the upstream said, what to check; no secret', () => {
    const err = response(401, 'Unauthorized: bearer abcdef for http://u:hunter2@h');
    const line = upstreamRefused(
      'opensearch',
      withoutCredentials('https://u:hunter2@h:9200'),
      'authentication',
      err,
    ).message;
    expect(line).toBe(
      'start-up failed: opensearch (https://h:9200): authentication refused: HTTP 401: Unauthorized: bearer [redacted] for http://u:[redacted]@h; check OPENSEARCH_USERNAME/OPENSEARCH_PASSWORD or the user:password in OPENSEARCH_URL',
    );
    expect(line).not.toContain('\n');
  });

  // operations.md: the line says what to check; a refused or unanswered connection said nothing.
  it.each([
    ['postgres', 'refused', 'check that it runs and that DATABASE_URL names its host and port'],
    ['opensearch', 'unreachable', 'check the host name in OPENSEARCH_URL'],
    ['postgres', 'timeout', "check that DATABASE_URL's host and port are reachable from here"],
  ] as const)('%s %s: says what to check', (upstream, reason, hint) => {
    const err = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), {
      code: 'ECONNREFUSED',
    });
    expect(upstreamRefused(upstream, 'postgresql://127.0.0.1:1/x', reason, err).message).toContain(
      `; ${hint}`,
    );
  });
});

describe('secrets in logs', () => {
  it('URLs lose their credentials and query; the new secret fields are redacted', () => {
    expect(withoutCredentials('https://u:p@a:9200/, http://b:9200')).toBe(
      'https://a:9200,http://b:9200',
    );
    expect(withoutCredentials('postgresql://u:p@db/app?password=x&sslmode=require')).toBe(
      'postgresql://db/app',
    );
    expect(
      redact({ OPENSEARCH_PASSWORD: 'x', aws_secret_access_key: 'y', opensearch_url: 'z' }),
    ).toEqual({
      OPENSEARCH_PASSWORD: '[redacted]',
      aws_secret_access_key: '[redacted]',
      opensearch_url: '[redacted]',
    });
  });
});

// A bad value stops start-up naming the variable, before anything is created or migrated.
describe('values refused by the schema', () => {
  it.each([
    [
      { CURSOR_SIGNING_KEYS: 'k1=tooshort' },
      'CURSOR_SIGNING_KEYS: the secret of entry 1 must be at least 32',
    ],
    [{ CURSOR_SIGNING_KEYS: 'short' }, 'CURSOR_SIGNING_KEYS: each entry must be kid=secret'],
    [
      { CURSOR_SIGNING_KEYS: `a=${'x'.repeat(32)},a=${'y'.repeat(32)}` },
      'CURSOR_SIGNING_KEYS: a kid is given twice',
    ],
    [
      { DATABASE_URL: 'mysql://root@127.0.0.1/x' },
      'DATABASE_URL: expected a postgresql:// or postgres:// URL',
    ],
    [{ REDIS_URL: 'http://127.0.0.1:6379' }, 'REDIS_URL: expected a redis:// or rediss:// URL'],
  ])('%j', (env, problem) => {
    expect(problems(env)).toContain(problem);
  });

  it('names every bad variable at once', () => {
    const message = problems({ PORT: 'abc', CURSOR_SIGNING_KEYS: 'short', REDIS_URL: 'notaurl' });
    for (const name of ['PORT', 'CURSOR_SIGNING_KEYS', 'REDIS_URL'])
      expect(message).toContain(`${name}:`);
  });

  it('takes an empty PORT as unset (8080), not as port 0', () => {
    expect(parseEnv({ PORT: '' }).PORT).toBe(8080);
    expect(parseEnv({ PORT: '0' }).PORT).toBe(0);
  });

  it('accepts both Postgres schemes and both Redis schemes', () => {
    for (const DATABASE_URL of ['postgres://db/x', 'postgresql://db/x'])
      expect(problems({ DATABASE_URL })).toBe('');
    for (const REDIS_URL of ['redis://127.0.0.1:6379', 'rediss://cache.example:6380'])
      expect(problems({ REDIS_URL })).toBe('');
  });
});

// Every problem at once: a combination that cannot work is named beside another variable's bad
// value (a bad REDIS_URL, or a short signing key, hid sslmode=prefer).
it('names a connection setting that cannot work beside every other problem', () => {
  const said = problems({
    DATABASE_URL: 'postgresql://h/db?sslmode=prefer',
    REDIS_URL: 'http://x',
    CURSOR_SIGNING_KEYS: 'short',
  });
  expect(said).toContain('sslmode=prefer is not supported');
  expect(said).toContain('REDIS_URL:');
  expect(said).toContain('CURSOR_SIGNING_KEYS:');
});
