import { AsyncLocalStorage } from 'node:async_hooks';

// The request a piece of work belongs to, carried across awaits, so that every log line written
// while serving a request names its request id without each caller passing it along.

interface RequestContext {
  requestId: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

export function runWithRequestId<T>(requestId: string, fn: () => T): T {
  return storage.run({ requestId }, fn);
}

export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}

/**
 * Runs `fn` outside any request: what it starts that lives on (a listening connection opened on
 * the first request that needs it) would otherwise carry that request's id into every log line of
 * its events, minutes later.
 */
export function outsideRequests<T>(fn: () => T): T {
  return storage.exit(fn);
}
