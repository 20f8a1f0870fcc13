import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { InFlightSlots } from '../../src/infra/in-flight-slots';
import { freePort } from '../../scripts/free-port';

// contract §19.8: the free but expensive operations' slots are the account's, across processes:
// leases in Redis that a process which died mid-call cannot keep, and the process's own count
// while Redis is absent or failing (contract §20.3).

const redisUrl = () => process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

function connect(url: string): Redis {
  const redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  redis.on('error', () => undefined);
  return redis;
}

let redis: Redis;
beforeAll(async () => {
  redis = connect(redisUrl());
  if (redis.status !== 'ready') await new Promise((resolve) => redis.once('ready', resolve));
});
afterAll(() => redis.quit());

const prefix = () => `inflight-test:${randomUUID()}`;

it('two processes share one account’s slots; a slot given back is free at once', async () => {
  const keyPrefix = prefix();
  const [one, two] = [1, 2].map(() => new InFlightSlots(redis, { keyPrefix, leaseMs: 60_000 }));
  if (!one || !two) throw new Error('two processes');
  const first = await one.acquire('account', 2);
  const second = await two.acquire('account', 2);
  expect(first).not.toBeNull();
  expect(second).not.toBeNull();
  expect(await one.acquire('account', 2)).toBeNull();
  expect(await two.acquire('account', 2)).toBeNull();
  // Another account has its own.
  expect(await two.acquire('other', 2)).not.toBeNull();
  await second?.();
  await second?.(); // given back twice: still one slot
  const third = await one.acquire('account', 2);
  expect(third).not.toBeNull();
  expect(await two.acquire('account', 2)).toBeNull();
  expect(one.heldLocally('account')).toBe(0); // Redis decided, not the process
  await first?.();
  await third?.();
  expect(await redis.exists(`${keyPrefix}:account`)).toBe(0);
});

it('a slot never given back (its process died) frees when its lease ends', async () => {
  const slots = new InFlightSlots(redis, { keyPrefix: prefix(), leaseMs: 300 });
  expect(await slots.acquire('account', 1)).not.toBeNull(); // never released
  expect(await slots.acquire('account', 1)).toBeNull();
  let freed = null;
  const deadline = Date.now() + 30_000; // a bound for a hang, not a measured time
  while (!freed && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    freed = await slots.acquire('account', 1);
  }
  expect(freed).not.toBeNull();
});

it('without a reachable Redis the process counts its own slots and never refuses for it', async () => {
  const down = connect(`redis://127.0.0.1:${await freePort()}`);
  try {
    const slots = new InFlightSlots(down, { keyPrefix: prefix(), leaseMs: 60_000 });
    const held = [await slots.acquire('account', 2), await slots.acquire('account', 2)];
    expect(held.every((release) => release !== null)).toBe(true);
    expect(await slots.acquire('account', 2)).toBeNull();
    expect(slots.heldLocally('account')).toBe(2);
    await held[0]?.();
    await held[0]?.();
    expect(slots.heldLocally('account')).toBe(1);
    expect(await slots.acquire('account', 2)).not.toBeNull();
  } finally {
    down.disconnect();
  }
});

it('a script that ran but answered past its deadline gives its Redis slot back with the call', async () => {
  const keyPrefix = prefix();
  const late = connect(redisUrl());
  if (late.status !== 'ready') await new Promise((resolve) => late.once('ready', resolve));
  try {
    // Redis runs the script; its answer comes too late (ioredis's rejection past commandTimeout).
    const evalOnRedis = late.eval.bind(late) as (...args: unknown[]) => Promise<unknown>;
    (late as unknown as { eval: (...args: unknown[]) => Promise<unknown> }).eval = async (
      ...args
    ) => {
      await evalOnRedis(...args);
      throw new Error('Command timed out');
    };
    const slots = new InFlightSlots(late, { keyPrefix, leaseMs: 60_000 });
    const release = await slots.acquire('account', 2);
    expect(release).not.toBeNull();
    expect(slots.heldLocally('account')).toBe(1);
    expect(await redis.zcard(`${keyPrefix}:account`)).toBe(1);
    // The stalled connection was replaced; the call ends once the new one is up.
    while (
      !(await late.ping().then(
        () => true,
        () => false,
      ))
    ) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await release?.();
    expect(slots.heldLocally('account')).toBe(0);
    expect(await redis.zcard(`${keyPrefix}:account`)).toBe(0);
  } finally {
    late.disconnect();
  }
});
