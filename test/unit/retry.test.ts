import { retryUntil } from '../../src/infra/retry';

// The first index set-up on a cold local OpenSearch is retried until its deadline.
it('retries a failing call until it succeeds', async () => {
  let calls = 0;
  const retried: unknown[] = [];
  const result = await retryUntil(
    () => (++calls < 3 ? Promise.reject(new Error('Request timed out')) : Promise.resolve('ok')),
    60_000,
    (err) => retried.push(err),
    1,
  );
  expect(result).toBe('ok');
  expect(calls).toBe(3);
  expect(retried).toHaveLength(2);
});

it('with no time to retry, throws the first error', async () => {
  let calls = 0;
  await expect(
    retryUntil(() => {
      calls++;
      return Promise.reject(new Error('down'));
    }, 0),
  ).rejects.toThrow('down');
  expect(calls).toBe(1);
});
