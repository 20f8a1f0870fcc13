import type { Redis } from 'ioredis';
import { createRedisClient, replaceStalledConnection } from '../../src/infra/redis-client';

// src/infra/redis-client.ts: a connection whose command outlived REDIS_TIMEOUT_MS is replaced.

const fakeRedis = (status = 'ready') => {
  const disconnect = jest.fn();
  return { redis: { status, disconnect } as unknown as Redis, disconnect };
};

it('replaces a ready connection, with a reconnect', () => {
  const { redis, disconnect } = fakeRedis();
  replaceStalledConnection(redis, 1_000);
  expect(disconnect).toHaveBeenCalledWith(true);
});

it('leaves one that is already reconnecting alone', () => {
  const { redis, disconnect } = fakeRedis('reconnecting');
  replaceStalledConnection(redis, 1_000);
  expect(disconnect).not.toHaveBeenCalled();
});

it('replaces at most one connection in five seconds (a slow server, not a gone one)', () => {
  const { redis, disconnect } = fakeRedis();
  replaceStalledConnection(redis, 10_000);
  replaceStalledConnection(redis, 12_000);
  replaceStalledConnection(redis, 14_999);
  expect(disconnect).toHaveBeenCalledTimes(1);
  replaceStalledConnection(redis, 15_000);
  expect(disconnect).toHaveBeenCalledTimes(2);
});

it('never sends a timed-out command again on the new connection (the limiter counted it)', () => {
  const redis = createRedisClient('redis://127.0.0.1:1', { timeoutMs: 100 });
  redis.on('error', () => undefined);
  try {
    expect(redis.options.autoResendUnfulfilledCommands).toBe(false);
  } finally {
    redis.disconnect();
  }
});
