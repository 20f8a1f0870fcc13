import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { compose } from '../../src/app/compose';
import { createApp } from '../../src/app/create-app';
import { createHttpServer } from '../../src/app/http-server';
import type { AppDeps } from '../../src/service/context';

export interface ServedApp {
  url: string;
  close(): Promise<void>;
}

/** A second app on an ephemeral port over the given deps (a dead pool, a hung search client...). */
export async function serveApp(deps: AppDeps): Promise<ServedApp> {
  const server: Server = await new Promise((resolve) => {
    const s = createHttpServer(createApp(compose(deps)), deps.env).listen(0, '127.0.0.1', () =>
      resolve(s),
    );
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
