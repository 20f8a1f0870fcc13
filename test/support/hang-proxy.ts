import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP forwarder to a real service that can be made to hang: after hang(), the connections stay
 * open but nothing more reaches either side, as with a frozen server or a silent network. Used to
 * show that every upstream call has a deadline (decisions 8).
 * hold() keeps what clients send instead (counting the HTTP requests among it) until release()
 * forwards it all: requests stay in flight for exactly as long as a test needs (decisions 12).
 */
export interface HangProxy {
  port: number;
  hang(): void;
  hold(): void;
  release(): void;
  /** HTTP requests that started while held and are not forwarded yet. */
  readonly heldRequests: number;
  close(): Promise<void>;
}

const HTTP_REQUEST_START = /^[A-Z]+ \S+ HTTP\/1\.[01]\r\n/;

export async function startHangProxy(
  targetPort: number,
  targetHost = '127.0.0.1',
): Promise<HangProxy> {
  let hung = false;
  let held: (() => void)[] | null = null;
  let heldRequests = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(targetPort, targetHost);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => sockets.delete(s));
    }
    client.on('data', (chunk: Buffer) => {
      if (hung) return;
      if (!held) {
        upstream.write(chunk);
        return;
      }
      if (HTTP_REQUEST_START.test(chunk.subarray(0, 2048).toString('latin1'))) heldRequests++;
      held.push(() => upstream.write(chunk));
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
    hold() {
      held ??= [];
    },
    release() {
      const queued = held ?? [];
      held = null;
      heldRequests = 0;
      for (const forward of queued) forward();
    },
    get heldRequests() {
      return heldRequests;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
