import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';

// A port for a child process (an API, a private redis-server) to bind a moment later, shared by the
// tests, the bench, the fault runs and the soak. listen(0) hands out a port of the kernel's
// ephemeral range, the range every outgoing connection of the machine also takes its local port
// from (the run's Postgres, Redis and OpenSearch clients, a few thousand a minute): under load one
// took the port between the check and the child's bind, and the child exited with "port 46661 is
// already in use" (api-processes.test.ts, a full `npm test` beside four audits). Ports below that
// range are only ever taken by listeners, which the check sees.

const LOWEST = 20_000;

/** The first port of the ephemeral range (Linux's default when it cannot be read). */
function ephemeralStart(): number {
  try {
    const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
      .trim()
      .split(/\s+/);
    return Number(low) || 32_768;
  } catch {
    return 32_768;
  }
}

function listenOn(port: number): Promise<number | null> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(null));
    // On every address, as the API binds (0.0.0.0): a listener on one address of the host holds
    // the port for it too.
    server.listen(port, '0.0.0.0', () => {
      const bound = (server.address() as AddressInfo).port;
      server.close(() => resolve(bound));
    });
  });
}

/** A port nothing listens on now, below the ephemeral range where there is room for one. */
export async function freePort(): Promise<number> {
  const highest = ephemeralStart() - 1;
  for (let attempt = 0; highest > LOWEST && attempt < 100; attempt++) {
    const port = await listenOn(randomInt(LOWEST, highest + 1));
    if (port !== null) return port;
  }
  const any = await listenOn(0);
  if (any === null) throw new Error('freePort: no port to listen on');
  return any;
}
