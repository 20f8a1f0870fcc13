import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP forwarder's plumbing: each client connection gets its own connection to the target, both
 * closed together and all closed by close(). `wire` decides what crosses and when (the test
 * proxies: hang-proxy.ts, pg-commit-proxy.ts, startGate below).
 */
export async function startTcpForwarder(
  targetPort: number,
  targetHost: string,
  wire: (client: Socket, upstream: Socket) => void,
): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(targetPort, targetHost);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => sockets.delete(s));
    }
    wire(client, upstream);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A forwarder that can be shut, as a service that goes away and comes back. */
export interface Gate {
  port: number;
  /** New connections are closed as they arrive; with `dropOpen`, those open are closed too. */
  shut(options?: { dropOpen?: boolean }): void;
  /** Connections go through again. */
  reopen(): void;
  close(): Promise<void>;
}

export async function startGate(targetPort: number, targetHost: string): Promise<Gate> {
  let shut = false;
  const open = new Set<Socket>();
  const forwarder = await startTcpForwarder(targetPort, targetHost, (client, upstream) => {
    if (shut) {
      client.destroy();
      upstream.destroy();
      return;
    }
    open.add(client);
    client.on('close', () => open.delete(client));
    client.pipe(upstream);
    upstream.pipe(client);
  });
  return {
    port: forwarder.port,
    shut({ dropOpen = false } = {}) {
      shut = true;
      if (dropOpen) for (const client of open) client.destroy();
    },
    reopen() {
      shut = false;
    },
    close: () => forwarder.close(),
  };
}
