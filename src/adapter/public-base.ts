import type { Request } from 'express';
import { isProduction, type Env } from '../config';

// contract §22.2: where the service says it lives. PUBLIC_BASE_URL, when set, is the one answer and
// the Host header is never read (a shared cache keyed without Host could otherwise be poisoned to
// send agents elsewhere, and DNS rebinding could make a hostile Origin look like our own). Unset,
// local mode believes the Host header; production believes nothing.

/** host, host:port or [v6]:port, nothing else: anything fancier is not echoed into a document. */
const PLAIN_HOST = /^[A-Za-z0-9.-]{1,253}(:\d{1,5})?$|^\[[0-9A-Fa-f:.]{2,45}\](:\d{1,5})?$/;

function hostBase(req: Request): string | null {
  const host = req.get('host') ?? '';
  return PLAIN_HOST.test(host) ? `${req.protocol}://${host}` : null;
}

/**
 * The absolute base of the service's URLs, without a trailing slash; '' (root-relative paths) in
 * production without PUBLIC_BASE_URL.
 */
export function publicBase(env: Env, req: Request): string {
  if (env.PUBLIC_BASE_URL !== undefined) return env.PUBLIC_BASE_URL;
  if (isProduction(env)) return '';
  return hostBase(req) ?? 'http://localhost';
}

/** Whether the base came from the request (then a cache must key on Host). */
export function baseFromHost(env: Env): boolean {
  return env.PUBLIC_BASE_URL === undefined && !isProduction(env);
}

/**
 * The service's own origin for the /mcp Origin check, lower case; null when it has none to claim
 * (production without PUBLIC_BASE_URL: then only a request without Origin is its own).
 */
export function ownOrigin(env: Env, req: Request): string | null {
  if (env.PUBLIC_BASE_URL !== undefined) return new URL(env.PUBLIC_BASE_URL).origin.toLowerCase();
  if (isProduction(env)) return null;
  return hostBase(req)?.toLowerCase() ?? null;
}
