import { readFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import { refusalReason, type RefusalReason } from './upstream-refusal';

// The one Redis connection of a process (rate limits). `rediss://` is TLS with the
// platform's CAs, or REDIS_CA_FILE's; an ACL user and password come from the URL
// (`rediss://user:password@host:6380`), which ioredis reads itself.

export interface RedisSettings {
  /** REDIS_TIMEOUT_MS: every command's deadline (contract §20.3). */
  timeoutMs: number;
  /** REDIS_CA_FILE: the CA that issued the server's certificate (config.ts: rediss:// only). */
  caFile?: string;
}

export function createRedisClient(url: string, settings: RedisSettings): Redis {
  return new Redis(url, {
    // contract §20.3: a Redis that stops answering fails the command after REDIS_TIMEOUT_MS, and
    // the limiters' in-process fallback takes over (it only covers errors, not waits).
    commandTimeout: settings.timeoutMs,
    connectTimeout: Math.max(settings.timeoutMs, 1000),
    // A connection closed by the client waits this long for the server's side of the close before
    // it is destroyed; a half-open one never sends it (replaceStalledConnection, shutdown).
    disconnectTimeout: settings.timeoutMs,
    enableOfflineQueue: false,
    // A command that timed out was answered by the in-process limiter already; sent again on a new
    // connection (ioredis's default), it would count its request twice, in a later window.
    autoResendUnfulfilledCommands: false,
    maxRetriesPerRequest: 1,
    lazyConnect: false,
    // The rate-limit commands of the requests handled in one event-loop turn go out in one write
    // (ioredis sends them at setImmediate): under load a socket write per request was about a
    // tenth of a cached count's CPU. Each command keeps its own deadline and answer.
    enableAutoPipelining: true,
    // Certificate verification stays on (Node's default); only the trusted CAs change.
    ...(settings.caFile ? { tls: { ca: readFileSync(settings.caFile, 'utf8') } } : {}),
  });
}

/** Refusals that retrying cannot cure: a wrong certificate, password or TLS setting. */
const MISCONFIGURED: ReadonlySet<RefusalReason> = new Set([
  'certificate',
  'hostname',
  'tls',
  'authentication',
]);

/**
 * Resolves once `redis` is ready or `ms` have passed: a Redis that is down never stops start-up
 * (the limiters fall back to process memory). A Redis that refuses the connection for a reason
 * that will not go away (certificate, password) does: resolves with that error, for start-up to
 * report.
 */
export function readyWithin(redis: Redis, ms: number): Promise<Error | undefined> {
  if (redis.status === 'ready') return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const done = (err?: Error) => {
      clearTimeout(timer);
      redis.off('ready', onReady);
      redis.off('error', onError);
      resolve(err);
    };
    const onReady = () => done();
    const onError = (err: Error) => {
      const reason = refusalReason(err);
      if (reason && MISCONFIGURED.has(reason)) done(err);
    };
    const timer = setTimeout(done, ms);
    redis.once('ready', onReady);
    redis.on('error', onError);
  });
}

/**
 * Called when a command outlived REDIS_TIMEOUT_MS on a connection that still looked ready. Such a
 * connection may be half-open (the peer gone without a close, its bytes dropped), and ioredis
 * keeps it until the kernel gives up on it, minutes later, while every command waits out its
 * deadline. It is replaced instead: the new connection is either ready at once (the stall was the
 * old connection's) or not ready, and commands are then refused at once (no offline queue), so the
 * in-process limiter answers without waiting.
 */
export function replaceStalledConnection(redis: Redis, now = Date.now()): void {
  // Only a ready connection: one already reconnecting is being replaced. And at most one a few
  // seconds: a server that is slow rather than gone (a fork, a long command) is not to be met by
  // every process reconnecting after every command that outlived its deadline.
  const last = lastReplaced.get(redis) ?? -Infinity;
  if (redis.status !== 'ready' || now - last < REPLACE_AT_MOST_EVERY_MS) return;
  lastReplaced.set(redis, now);
  redis.disconnect(true);
}

const REPLACE_AT_MOST_EVERY_MS = 5_000;
const lastReplaced = new WeakMap<Redis, number>();

/** ioredis's rejection of a command past its commandTimeout. */
export function isCommandTimeout(err: unknown): boolean {
  return err instanceof Error && err.message === 'Command timed out';
}
