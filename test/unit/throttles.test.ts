import { TokenBucket } from '../../src/infra/token-bucket';
import { throttledProbes } from '../../src/service/health';

// contract §19: the per-process bounds on what anonymous callers can make the service do, on an
// injected clock.

it('TokenBucket: a burst, then perSecond a second, never more', () => {
  let now = 0;
  const bucket = new TokenBucket(2, 5, () => now);
  const taken = () => Array.from({ length: 20 }, () => bucket.take()).filter(Boolean).length;
  expect(taken()).toBe(5);
  now += 1000;
  expect(taken()).toBe(2);
  now += 500;
  expect(taken()).toBe(1);
  now += 60_000;
  expect(taken()).toBe(5);
});

it('throttledProbes: each probe at most once per interval, callers in between share its answer', async () => {
  let now = 0;
  const calls = { postgres: 0, opensearch: 0 };
  let up = true;
  const probes = throttledProbes(
    {
      postgres: async () => (calls.postgres++, up),
      opensearch: async () => {
        calls.opensearch++;
        throw new Error('unreachable');
      },
    },
    () => now,
  );
  const answers = await Promise.all(Array.from({ length: 100 }, () => probes.postgres()));
  expect(answers.every(Boolean)).toBe(true);
  expect(await probes.opensearch()).toBe(false); // a probe that throws counts as down
  expect(calls).toEqual({ postgres: 1, opensearch: 1 });
  up = false;
  now += 999;
  expect(await probes.postgres()).toBe(true);
  now += 1;
  expect(await probes.postgres()).toBe(false);
  expect(calls.postgres).toBe(2);
});

it('throttledProbes: a probe that has not answered within the deadline counts as down, and no second call starts while it is out', async () => {
  let now = 0;
  let calls = 0;
  let answer: (up: boolean) => void = () => undefined;
  const probes = throttledProbes(
    {
      postgres: async () => true,
      // The first call hangs until answered; the next ones answer at once.
      opensearch: () =>
        ++calls === 1
          ? new Promise<boolean>((resolve) => (answer = resolve))
          : Promise.resolve(true),
    },
    () => now,
    20,
  );
  expect(await probes.opensearch()).toBe(false); // after 20 ms, not after the call's own deadline
  now += 5000;
  expect(await probes.opensearch()).toBe(false);
  expect(calls).toBe(1); // still out: no second call to a hung upstream
  answer(true);
  await new Promise((resolve) => setImmediate(resolve));
  now += 1000;
  expect(await probes.opensearch()).toBe(true);
  expect(calls).toBe(2);
});
