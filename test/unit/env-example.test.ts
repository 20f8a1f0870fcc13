import { readFileSync } from 'node:fs';
import path from 'node:path';
import { EnvSchema, parseEnv } from '../../src/config';

// .env.example lists every variable with its default. Checked both ways against
// the config schema, so a variable added to src/config.ts without a line here fails this test.

/** Read by scripts or the runtime rather than the config schema. */
const OUTSIDE_SCHEMA = ['OPENSEARCH_HEAP', 'OPENSEARCH_LOCAL_ROOT'];

function example(): Map<string, string> {
  const text = readFileSync(path.resolve(__dirname, '../../.env.example'), 'utf8');
  const entries = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (!line.trim() || line.startsWith('#')) continue;
    const match = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    expect({ line, ok: match !== null }).toEqual({ line, ok: true });
    if (match?.[1] !== undefined) entries.set(match[1], match[2] ?? '');
  }
  return entries;
}

it('names every variable of the config schema, and nothing unknown', () => {
  const names = [...example().keys()];
  const schemaKeys = Object.keys(EnvSchema.shape);
  expect(schemaKeys.filter((k) => !names.includes(k))).toEqual([]);
  expect(names.filter((k) => !schemaKeys.includes(k) && !OUTSIDE_SCHEMA.includes(k))).toEqual([]);
  expect(new Set(names).size).toBe(names.length);
});

it('gives each variable its real default: the file parses to what an empty environment does', () => {
  const inSchema = [...example()].filter(([k]) => k in EnvSchema.shape);
  // Loaded as written (empty values included), the file is a valid configuration...
  expect(() => parseEnv(Object.fromEntries(inSchema))).not.toThrow();
  // ...and every value it gives is the schema's default (an empty value means unset).
  const given = Object.fromEntries(inSchema.filter(([, v]) => v !== ''));
  expect(parseEnv(given)).toEqual(parseEnv({}));
});

// .env.example's rule: an empty value means unset. Coerced, an empty number was 0
// (SYNC_INTERVAL_MS= turned the index follower off) and an empty LOG_LEVEL stopped start-up.
it('takes every variable given empty as unset: the defaults of an empty environment', () => {
  const empty = Object.fromEntries(Object.keys(EnvSchema.shape).map((name) => [name, '']));
  expect(parseEnv(empty)).toEqual(parseEnv({}));
});

// So is a value of spaces only: coerced, " " was 0 too (no shutdown grace, a random port).
it('takes every variable given as spaces only as unset', () => {
  const blank = Object.fromEntries(Object.keys(EnvSchema.shape).map((name) => [name, ' \t ']));
  expect(parseEnv(blank)).toEqual(parseEnv({}));
});

// Node's timers fire after 1 ms past 2^31-1 ms: SYNC_INTERVAL_MS=2147483648 looped the index
// follower, a longer SHUTDOWN_GRACE_MS cut every request at once, a longer REDIS_TIMEOUT_MS timed
// out every command, and a longer POSTGRES_COMMIT_TIMEOUT_MS answered 503 to every charged page.
describe('durations the timers cannot keep', () => {
  const DURATIONS = Object.keys(EnvSchema.shape).filter((name) => name.endsWith('_MS'));

  it.each(DURATIONS)('%s=2147483648 stops start-up naming it', (name) => {
    expect(() => parseEnv({ [name]: '2147483648' })).toThrow(
      new RegExp(`invalid configuration: ${name}: at most \\d+ ms`),
    );
  });

  it.each(DURATIONS.filter((name) => name !== 'SHUTDOWN_GRACE_MS'))(
    '%s=2147483647 is kept',
    (name) => {
      const env = { [name]: '2147483647' };
      // HTTP_REQUEST_TIMEOUT_MS is at least HTTP_HEADERS_TIMEOUT_MS.
      if (name === 'HTTP_HEADERS_TIMEOUT_MS') env.HTTP_REQUEST_TIMEOUT_MS = '2147483647';
      expect((parseEnv(env) as Record<string, unknown>)[name]).toBe(2147483647);
    },
  );

  it('the shutdown grace leaves room for the primary margin after it', () => {
    expect(() => parseEnv({ SHUTDOWN_GRACE_MS: '2147483647' })).toThrow(/SHUTDOWN_GRACE_MS/);
    expect(parseEnv({ SHUTDOWN_GRACE_MS: '2147423647' }).SHUTDOWN_GRACE_MS).toBe(2147423647);
  });
});

// PUBLIC_BASE_URL is published in /llms.txt and the OpenAPI servers entry, credentials and all.
it('refuses a PUBLIC_BASE_URL with a user or password', () => {
  expect(() => parseEnv({ PUBLIC_BASE_URL: 'https://u:secret@api.example.com' })).toThrow(
    /PUBLIC_BASE_URL: no user or password/,
  );
  expect(() => parseEnv({ PUBLIC_BASE_URL: 'https://u@api.example.com' })).toThrow(
    /PUBLIC_BASE_URL/,
  );
  expect(parseEnv({ PUBLIC_BASE_URL: 'https://api.example.com/' }).PUBLIC_BASE_URL).toBe(
    'https://api.example.com',
  );
});

// An entry no Origin header can equal was accepted and never matched (the `*`, a path, a default
// port written out).
describe('MCP_ALLOWED_ORIGINS', () => {
  it('keeps each origin as a browser sends it', () => {
    const env = parseEnv({
      MCP_ALLOWED_ORIGINS: 'https://A.example:443, http://b.example:8080/,https://c.example',
    });
    expect(env.MCP_ALLOWED_ORIGINS).toEqual([
      'https://a.example',
      'http://b.example:8080',
      'https://c.example',
    ]);
  });

  it.each([
    '*',
    'https://b.example/app',
    'notanorigin',
    'javascript:alert(1)',
    'https://u:p@a.example',
    'ftp://a.example',
    'https://a.example?x=1',
  ])('%s stops start-up naming the variable', (item) => {
    expect(() => parseEnv({ MCP_ALLOWED_ORIGINS: `https://ok.example,${item}` })).toThrow(
      /invalid configuration: MCP_ALLOWED_ORIGINS: item 2 is not an origin/,
    );
    // Named by its position, never shown back: it may hold a password.
    expect(() => parseEnv({ MCP_ALLOWED_ORIGINS: item })).toThrow(/^(?!.*u:p@)/s);
  });
});

// docs/operations.md calls its Configuration table the full one: four variables of the schema
// (EXPENSIVE_IN_FLIGHT_PER_ACCOUNT, POSTGRES_COMMIT_TIMEOUT_MS, RECORD_CACHE_MB, SYNC_INTERVAL_MS)
// were only in other tables of the page.
it("docs/operations.md's Configuration table names every variable of the config schema", () => {
  const page = readFileSync(path.resolve(__dirname, '../../docs/operations.md'), 'utf8');
  const section = page.split('\n## Configuration\n')[1]?.split('\n## ')[0] ?? '';
  const named = new Set(
    section
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .flatMap((line) => [...(line.split('|')[1] ?? '').matchAll(/`([A-Z][A-Z0-9_]*)`/g)])
      .map((m) => m[1]),
  );
  expect(Object.keys(EnvSchema.shape).filter((k) => !named.has(k))).toEqual([]);
});

// z.coerce.number read PORT=0x50 as 80, and 1e3 and 0b1010 as numbers: no operator writes them.
describe('numbers are written in decimal digits', () => {
  const defaults = parseEnv({}) as Record<string, unknown>;
  const NUMBERS = [
    ...Object.keys(EnvSchema.shape).filter((name) => typeof defaults[name] === 'number'),
    'OPENSEARCH_SHARDS',
    'OPENSEARCH_REPLICAS',
  ];

  it('the list is the schema numbers', () => {
    expect(NUMBERS).toEqual(expect.arrayContaining(['PORT', 'SYNC_INTERVAL_MS', 'API_PROCESSES']));
  });

  it.each(
    NUMBERS.flatMap((name) =>
      ['0x8', '1e1', '0b1010', '8px', '5.0000000000000001'].map((v) => [name, v]),
    ),
  )('%s=%s stops start-up naming it', (name, value) => {
    expect(() => parseEnv({ [name]: value })).toThrow(
      new RegExp(`invalid configuration: ${name}: expected`),
    );
  });

  it.each(NUMBERS)('%s keeps a decimal value with spaces around it', (name) => {
    // One more than the default is within every variable's range (and the shards' 2).
    const value = typeof defaults[name] === 'number' ? defaults[name] + 1 : 2;
    const parsed = parseEnv({ [name]: ` ${value} ` }) as Record<string, unknown>;
    expect(parsed[name]).toBe(value);
  });
});
