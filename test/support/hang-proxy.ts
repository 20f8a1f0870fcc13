import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP forwarder to a real service that can be made to hang: after hang(), the connections stay
 * open but nothing more reaches either side, as with a frozen server or a silent network. Used to
 * show that every upstream call has a deadline (decisions 8).
 */
export interface HangProxy {
  port: number;
  hang(): void;
  close(): Promise<void>;
}

export async function startHangProxy(
  targetPort: number,
  targetHost = '127.0.0.1',
): Promise<HangProxy> {
  let hung = false;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(targetPort, targetHost);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => sockets.delete(s));
    }
    client.on('data', (chunk) => {
      if (!hung) upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (!hung) client.write(chunk);
    });
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    hang() {
      hung = true;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
