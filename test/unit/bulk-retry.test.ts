import { bulkWithRetry, isRetryable, withRetries, type RetryPolicy } from '../../src/search/bulk';

// A 429 or a slow bulk must not abort a long seed. Whole-request failures that are
// not ours are retried with backoff; documents refused with 429 inside a bulk response are resent.

const waits: number[] = [];
const policy: RetryPolicy = {
  attempts: 4,
  baseDelayMs: 100,
  maxDelayMs: 1000,
  sleep: async (ms) => {
    waits.push(ms);
  },
};
beforeEach(() => (waits.length = 0));

const httpError = (statusCode: number) =>
  Object.assign(new Error(`HTTP ${statusCode}`), { name: 'ResponseError', meta: { statusCode } });
const timeout = () => Object.assign(new Error('Request timed out'), { name: 'TimeoutError' });

it('knows what is worth retrying', () => {
  expect(isRetryable(httpError(429))).toBe(true);
  expect(isRetryable(httpError(503))).toBe(true);
  expect(isRetryable(timeout())).toBe(true);
  expect(isRetryable(httpError(400))).toBe(false);
  expect(isRetryable(new Error('mapping'))).toBe(false);
});

it('retries 429s and timeouts with growing waits, then succeeds', async () => {
  const failures = [httpError(429), timeout(), httpError(502)];
  const fn = jest.fn(async () => {
    const next = failures.shift();
    if (next) throw next;
    return 'ok';
  });
  await expect(withRetries(fn, policy)).resolves.toBe('ok');
  expect(fn).toHaveBeenCalledTimes(4);
  expect(waits).toHaveLength(3);
  expect(waits[0]).toBeGreaterThanOrEqual(50);
  expect(waits[0]).toBeLessThanOrEqual(100);
  expect(waits[2]).toBeGreaterThanOrEqual(200);
  expect(waits[2]).toBeLessThanOrEqual(400);
});

it('gives up after the attempts, and never retries what retrying cannot fix', async () => {
  await expect(withRetries(async () => Promise.reject(httpError(429)), policy)).rejects.toThrow(
    'HTTP 429',
  );
  expect(waits).toHaveLength(3);
  waits.length = 0;
  const bad = jest.fn(async () => Promise.reject(httpError(400)));
  await expect(withRetries(bad, policy)).rejects.toThrow('HTTP 400');
  expect(bad).toHaveBeenCalledTimes(1);
});

const op = (id: string) => ({
  action: { index: { _index: 'i', _id: id } },
  document: { id },
});

/** The ids of a bulk body's actions, in order (its lines alternate action and document). */
const actionIds = (body: string) =>
  body
    .trimEnd()
    .split('\n')
    .filter((_, i) => i % 2 === 0)
    .map((line) => (JSON.parse(line) as { index: { _id: string } }).index._id);

it('resends only the documents refused with 429', async () => {
  const sent: string[][] = [];
  const search = {
    bulk: jest.fn(async ({ body }: { body: string }) => {
      const ids = actionIds(body);
      sent.push(ids);
      const refuse = sent.length === 1 ? new Set(['b', 'c']) : new Set<string>();
      return {
        body: {
          errors: refuse.size > 0,
          items: ids.map((id) => ({
            index: refuse.has(id)
              ? { status: 429, error: { type: 'es_rejected_execution_exception' } }
              : { status: 201 },
          })),
        },
      };
    }),
  };
  await bulkWithRetry(search as never, [op('a'), op('b'), op('c'), op('d')], policy);
  expect(sent).toEqual([
    ['a', 'b', 'c', 'd'],
    ['b', 'c'],
  ]);
  expect(waits).toHaveLength(1);
});

it('throws on a document failure that is not a 429', async () => {
  const search = {
    bulk: async () => ({
      body: {
        errors: true,
        items: [{ index: { status: 400, error: { type: 'mapper_parsing_exception' } } }],
      },
    }),
  };
  await expect(bulkWithRetry(search as never, [op('a')], policy)).rejects.toThrow(
    /bulk indexing failed for 1 documents: .*mapper_parsing_exception/,
  );
});

it('a delete of a missing document is not a failure', async () => {
  const search = {
    bulk: async () => ({
      body: {
        errors: true,
        items: [{ delete: { status: 404, result: 'not_found', error: undefined } }],
      },
    }),
  };
  await expect(
    bulkWithRetry(search as never, [{ action: { delete: { _index: 'i', _id: 'x' } } }], policy),
  ).resolves.toBeUndefined();
});

it('cuts the operations into requests of at most maxBytes, in order, one document at least', async () => {
  const bodies: string[] = [];
  const search = {
    bulk: async ({ body }: { body: string }) => {
      bodies.push(body);
      return { body: { errors: false, items: [] } };
    },
  };
  const big = (id: string) => ({ ...op(id), document: { id, text: 'x'.repeat(300) } });
  await bulkWithRetry(
    search as never,
    [op('a'), big('b'), op('c'), big('d'), op('e')],
    policy,
    410,
  );
  // a and b are 402 bytes together; c would pass 410.
  expect(bodies.map(actionIds)).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
  for (const body of bodies) {
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(410);
    expect(body.endsWith('\n')).toBe(true);
  }
  // One document over the bound is still sent, alone.
  bodies.length = 0;
  await bulkWithRetry(search as never, [op('a'), big('b')], policy, 100);
  expect(bodies.map(actionIds)).toEqual([['a'], ['b']]);
});
