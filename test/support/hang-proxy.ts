import { startTcpForwarder } from './tcp-forwarder';

/**
 * A TCP forwarder to a real service that can be made to hang: after hang(), the connections stay
 * open but nothing more reaches either side, as with a frozen server or a silent network. Used to
 * show that every upstream call has a deadline (contract §20.3).
 * hold() keeps what clients send instead (counting the HTTP requests among it) until release()
 * forwards it all: requests stay in flight for exactly as long as a test needs (contract §19.8).
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
  const forwarder = await startTcpForwarder(targetPort, targetHost, (client, upstream) => {
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
  });
  return {
    port: forwarder.port,
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
    close: () => forwarder.close(),
  };
}
