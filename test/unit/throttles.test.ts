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

// A hung engine held /readyz for the call's own deadline (5 s by default), and a probe that waited
// for the hung call kept /readyz at 503 that long after the engine was back.
it('throttledProbes: a probe that has not answered within the deadline counts as down, and the next one does not wait for it', async () => {
  let now = 0;
  let calls = 0;
  const probes = throttledProbes(
    {
      postgres: async () => true,
      // The first call hangs for good; the next ones answer at once.
      opensearch: () =>
        ++calls === 1 ? new Promise<boolean>(() => undefined) : Promise.resolve(true),
    },
    () => now,
    20,
  );
  expect(await probes.opensearch()).toBe(false); // after 20 ms, not after the call's own deadline
  expect(await probes.opensearch()).toBe(false); // within the interval: the same answer
  expect(calls).toBe(1);
  now += 1000;
  expect(await probes.opensearch()).toBe(true); // back: the hung call is not waited for
  expect(calls).toBe(2);
});
