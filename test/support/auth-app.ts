import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { realBackends } from '../../src/app/compose';
import { authOf, createAuthenticator } from '../../src/adapter/authenticate';
import { AuthService } from '../../src/service/auth';
import { errorHandler } from '../../src/http/middleware/errors';
import { requestId } from '../../src/http/middleware/request-id';
import { requestLog } from '../../src/http/middleware/request-log';
import { createLogger } from '../../src/infra/logger';
import type { AppDeps } from '../../src/service/context';

export interface AuthApp {
  baseUrl: string;
  /** Every line this app logged, at debug level. */
  logs: string[];
  call(path: string, headers?: Record<string, string>): Promise<Reply>;
  close(): Promise<void>;
}

/** A clock that moves only when told to: the key cache's TTL is then a step, not a wait. */
export interface ManualClock {
  now(): number;
  advance(ms: number): void;
}

export function manualClock(start = Date.now()): ManualClock {
  let now = start;
  return {
    now: () => now,
    advance: (ms) => {
      now += ms;
    },
  };
}

export interface Reply {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

/**
 * A minimal app around the real middleware (the read routes are built elsewhere): /rest reads
 * X-API-Key only, /mcp also accepts Authorization: Bearer, both answer with the caller's ids.
 */
export async function startAuthApp(
  deps: AppDeps,
  options: { clock?: ManualClock } = {},
): Promise<AuthApp> {
  const logs: string[] = [];
  const logger = createLogger('debug', (line) => logs.push(line));
  const withLogs: AppDeps = { ...deps, logger };
  const clock = options.clock ?? { now: () => Date.now() };
  const backends = realBackends(withLogs);
  const service = new AuthService(withLogs, backends.keys, backends.authFailures, () =>
    clock.now(),
  );
  const auth = createAuthenticator(service);
  const app = express();
  app.set('trust proxy', 'loopback');
  app.use(requestId);
  app.use(requestLog(logger));
  const whoami = (req: express.Request, res: express.Response) => {
    const { account, key } = authOf(req);
    res.json({ account_id: account.id, key_id: key.id });
  };
  app.get('/rest', auth.requireApiKey({ allowBearer: false }), whoami);
  app.post('/mcp', auth.requireApiKey({ allowBearer: true }), whoami);
  // No read service here: a 403's usage headers are the read suites' concern.
  app.use(errorHandler(logger, async (error) => ({ error, headers: {} })));
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl,
    logs,
    async call(path, headers = {}) {
      const method = path.startsWith('/mcp') ? 'POST' : 'GET';
      const res = await fetch(`${baseUrl}${path}`, { method, headers });
      return {
        status: res.status,
        headers: res.headers,
        body: (await res.json()) as Record<string, unknown>,
      };
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export { accountWithKey } from './factories';
