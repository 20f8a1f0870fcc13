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
