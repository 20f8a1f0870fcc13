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
  /**
   * The connections open now go silent for good (bytes dropped both ways, nothing closed), as a
   * half-open connection whose peer is gone; connections made afterwards pass.
   */
  silenceOpen(): void;
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
  const open = new Set<object>();
  const silenced = new WeakSet<object>();
  const forwarder = await startTcpForwarder(targetPort, targetHost, (client, upstream) => {
    open.add(client);
    client.on('close', () => open.delete(client));
    client.on('data', (chunk: Buffer) => {
      if (hung || silenced.has(client)) return;
      if (!held) {
        upstream.write(chunk);
        return;
      }
      if (HTTP_REQUEST_START.test(chunk.subarray(0, 2048).toString('latin1'))) heldRequests++;
      held.push(() => upstream.write(chunk));
    });
    upstream.on('data', (chunk) => {
      if (!hung && !silenced.has(client)) client.write(chunk);
    });
  });
  return {
    port: forwarder.port,
    hang() {
      hung = true;
    },
    silenceOpen() {
      for (const client of open) silenced.add(client);
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
