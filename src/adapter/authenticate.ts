import type { IncomingHttpHeaders } from 'node:http';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ApiError } from '../domain/errors';
import { holdsKey } from '../domain/key-shape';
import { REST_CHALLENGE } from '../domain/response-headers';
import {
  refusedAfterAuthentication,
  type AuthContext,
  type AuthOptions,
  type AuthService,
} from '../service/auth';

export type { AuthContext } from '../service/auth';

declare module 'express-serve-static-core' {
  interface Request {
    /** The authenticated account and key, set by requireApiKey (read it with authOf). */
    auth?: AuthContext;
  }
}

// Query parameters that look like a key. They are never read (contract §14.2.5, §14.6: a key in
// the URL is an unknown parameter, refused by the filter parser); their presence only changes the
// 401 message so that the caller learns where the key belongs.
export const KEY_LIKE_PARAMETERS: ReadonlySet<string> = new Set([
  'api_key',
  'apikey',
  'key',
  'x-api-key',
]);

/**
 * Whether the query string holds a key as contract §6.14 counts one: a parameter named like a key,
 * or a name or value that holds one (`q=oppk_…`, `?oppk_…=1`). Without a key in its headers, such a
 * request's 401 says that keys in the URL are never accepted (it said so for the names alone).
 */
export function keyInQuery(query: Readonly<Record<string, unknown>>): boolean {
  return Object.entries(query).some(
    ([name, value]) =>
      KEY_LIKE_PARAMETERS.has(name.toLowerCase()) || holdsKey(name) || holdsKey(value),
  );
}

export interface Authenticator {
  /** Resolves the caller from the request headers, or throws the ApiError to send. */
  authenticate(
    headers: IncomingHttpHeaders,
    ip: string | undefined,
    options: AuthOptions,
  ): Promise<AuthContext>;
  /** Express middleware: sets req.auth, or passes the 401/403/429 ApiError to the error handler. */
  requireApiKey(options: { allowBearer: boolean }): RequestHandler;
  /** Throws a route's own 401 after counting it against the address's failures (or their 429). */
  refuse(error: ApiError, ip: string | undefined): Promise<never>;
}

/**
 * The express face of the one AuthService (built by app/compose.ts), shared by the REST routes and
 * /mcp: the service owns the lookup cache (revocation takes effect within 1 s, see
 * service/auth.ts) and the failure throttle.
 */
export function createAuthenticator(service: AuthService): Authenticator {
  return {
    authenticate: (headers, ip, options) => service.authenticate(headers, ip, options),
    refuse: (error, ip) => service.refuse(error, ip),
    requireApiKey({ allowBearer }) {
      return (req: Request, _res: Response, next: NextFunction): void => {
        const options = { allowBearer, keyInQuery: () => keyInQuery(req.query) };
        service.authenticate(req.headers, req.ip, options).then(
          (auth) => {
            req.auth = auth;
            next(refusalAfterAuthentication(req, auth));
          },
          (err: unknown) => {
            // RFC 9110 §11.6.1: a 401 carries a challenge.
            if (err instanceof ApiError && err.status === 401) {
              err.headers['WWW-Authenticate'] = REST_CHALLENGE;
            }
            next(err);
          },
        );
      };
    },
  };
}

/** The caller of a route mounted behind requireApiKey; a missing one is a wiring bug. */
export function authOf(req: Request): AuthContext {
  if (!req.auth) throw new Error('authOf: route is not behind requireApiKey');
  return req.auth;
}

/**
 * What a request refused after its key was authenticated gets instead of its route: a malformed
 * X-Request-ID (middleware/request-id.ts) is answered once the key is known good, as an error about
 * that key (counted against its rate limit, with its headers), or undefined to go on.
 */
export function refusalAfterAuthentication(req: Request, auth: AuthContext): ApiError | undefined {
  return req.requestIdRefusal && refusedAfterAuthentication(req.requestIdRefusal, auth);
}
