import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { requestLog } from '../../src/http/middleware/request-log';

// operations.md: every request writes one "request" line. One whose connection closed before its
// response (the client gave up, the shutdown's grace ended) wrote none: only the requests that
// failed went unseen in the logs.

type Line = { msg: string } & Record<string, unknown>;

async function appWithLog() {
  const lines: Line[] = [];
  const logger = {
    debug() {},
    info: (msg: string, fields?: Record<string, unknown>) => lines.push({ msg, ...fields }),
    warn() {},
    error() {},
  };
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  const app = express();
  app.use(requestLog(logger));
  app.get('/slow', (_req, res) => void held.then(() => res.json({ ok: true })));
  app.get('/fast', (_req, res) => void res.status(201).json({ ok: true }));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    lines,
    port,
    release,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

it('logs an answered request once, and one whose client left before the answer as aborted', async () => {
  const app = await appWithLog();
  try {
    await fetch(`http://127.0.0.1:${app.port}/fast`);
    const gaveUp = request({ port: app.port, host: '127.0.0.1', path: '/slow' });
    gaveUp.on('error', () => undefined);
    gaveUp.end();
    await new Promise((resolve) => setTimeout(resolve, 100));
    gaveUp.destroy();
    for (let i = 0; i < 50 && app.lines.length < 2; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    app.release();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(
      app.lines.map(({ msg, path, status, aborted }) => ({ msg, path, status, aborted })),
    ).toEqual([
      { msg: 'request', path: '/fast', status: 201, aborted: undefined },
      { msg: 'request', path: '/slow', status: 499, aborted: true },
    ]);
  } finally {
    await app.close();
  }
});
