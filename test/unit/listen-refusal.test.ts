import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { listen } from '../../src/app/http-server';
import { ConfigError } from '../../src/config';

// A newcomer's second `npm start` (or anything else on 8080) once died on an unhandled 'error'
// event with a stack; a port that is taken is the operator's to fix: one line, exit 1 (main.ts, app/processes.ts).

const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

it('refuses a port another server holds with a ConfigError naming it and PORT', async () => {
  const holder = createServer();
  await listen(holder, 0, '127.0.0.1');
  const { port } = holder.address() as AddressInfo;
  const second = createServer();
  try {
    const refusal = await listen(second, port, '127.0.0.1').then(
      () => null,
      (err: unknown) => err,
    );
    expect(refusal).toBeInstanceOf(ConfigError);
    expect((refusal as Error).message).toBe(
      `port ${port} is already in use: stop what holds it, or set PORT`,
    );
    expect(second.listenerCount('error')).toBe(0);
  } finally {
    await close(holder);
  }
});

it('resolves once listening and leaves no error listener behind', async () => {
  const server = createServer();
  await listen(server, 0, '127.0.0.1');
  expect(server.listening).toBe(true);
  expect(server.listenerCount('error')).toBe(0);
  await close(server);
});
