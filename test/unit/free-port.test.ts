import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { freePort } from '../../scripts/free-port';
import { freePort as childPort } from '../support/server-process';

// A child's port is chosen below the ephemeral range, where the machine's outgoing connections
// never take it between the check and the child's bind (api-processes.test.ts once failed with
// "port 46661 is already in use" in a loaded full run).

const ephemeralStart = Number(
  readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0],
);

it('is below the ephemeral range, and bindable', async () => {
  for (let i = 0; i < 20; i++) {
    const port = await freePort();
    expect(port).toBeGreaterThanOrEqual(20_000);
    expect(port).toBeLessThan(ephemeralStart);
    await new Promise<void>((resolve, reject) => {
      const s = createServer().once('error', reject);
      s.listen(port, '127.0.0.1', () => s.close(() => resolve()));
    });
  }
});

it('is the one the test servers use', async () => {
  expect(childPort).toBe(freePort);
});
