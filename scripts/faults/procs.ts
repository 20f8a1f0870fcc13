import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, request as httpRequest, type Server } from 'node:http';
import { createConnection, createServer, type Socket } from 'node:net';
import path from 'node:path';
import { sleep } from './load';
import { freePort } from '../free-port';

// The moving parts a fault run controls: API instances as child processes, a tiny
// round-robin HTTP proxy in front of them, a TCP proxy in front of Postgres that can cut every
// connection, and a private redis-server. Every one of them is stopped by the run that started it.

const ROOT = path.resolve(__dirname, '../..');

// Whatever a run started (track()) is stopped when the run is interrupted (Ctrl-C, SIGTERM), not
// left behind.
const started = new Set<ChildProcess>();
export function track(child: ChildProcess): ChildProcess {
  started.add(child);
  child.once('exit', () => started.delete(child));
  return child;
}
export function killStartedChildren(): void {
  for (const child of started) child.kill('SIGKILL');
}
export function stopChildrenOnInterrupt(): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      killStartedChildren();
      process.exit(130);
    });
  }
}

export { freePort };

export async function waitFor(
  check: () => Promise<boolean>,
  timeoutMs: number,
  what: string,
): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    // A check that itself hangs (a request to a frozen server) counts as "not yet", not forever.
    let timer: NodeJS.Timeout | undefined;
    const giveUp = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs - (Date.now() - started));
    });
    const outcome = await Promise.race([check().catch(() => false), giveUp]);
    clearTimeout(timer);
    if (outcome) return Date.now() - started;
    await sleep(250);
  }
  throw new Error(`${what} did not happen within ${timeoutMs} ms`);
}

/** Log lines of every API instance of the run, by "level message". */
export const logCounts: Record<string, number> = {};

export class ApiInstance {
  child: ChildProcess | null = null;
  constructor(
    readonly port: number,
    private readonly env: Record<string, string>,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    this.child = track(
      spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? '', ...this.env, PORT: String(this.port) },
        stdio: ['ignore', 'ignore', 'pipe'],
      }),
    );
    let partial = '';
    this.child.stderr?.on('data', (chunk: Buffer) => {
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) this.logLine(line);
    });
    await waitFor(
      async () => (await fetch(`${this.url}/readyz`)).status === 200,
      120_000,
      `API on port ${this.port} ready`,
    );
  }

  /**
   * What an operator would read: JSON lines are counted by level and message (the run prints the
   * counts); errors and anything not JSON (a crash) are shown as they come.
   */
  private logLine(line: string): void {
    const parsed = /^\{"level":"(\w+)".*"msg":"([^"]*)"/.exec(line);
    if (parsed) {
      const name = `${parsed[1]} ${parsed[2]}`;
      logCounts[name] = (logCounts[name] ?? 0) + 1;
    }
    if (!parsed || parsed[1] === 'error') process.stderr.write(`[api:${this.port}] ${line}\n`);
  }

  /** kill -9: no draining, no goodbye (the crash fault). */
  kill9(): void {
    this.child?.kill('SIGKILL');
    this.child = null;
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.child = null;
    child.kill('SIGTERM');
    await Promise.race([new Promise((resolve) => child.once('exit', resolve)), sleep(15_000)]);
    child.kill('SIGKILL');
  }

  rssMb(): number {
    const pid = this.child?.pid;
    if (!pid) return 0;
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
    } catch {
      return 0;
    }
  }
}

/** Round-robin over the given backends, one upstream connection per request. */
export class RoundRobin {
  private server: Server | null = null;
  private next = 0;
  url = '';
  constructor(public backends: string[]) {}

  async start(): Promise<void> {
    this.server = createHttpServer((req, res) => {
      const target = new URL(this.backends[this.next++ % this.backends.length] ?? '');
      const upstream = httpRequest(
        {
          host: target.hostname,
          port: target.port,
          path: req.url,
          method: req.method,
          headers: req.headers,
        },
        (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        },
      );
      upstream.on('error', () => {
        if (!res.headersSent) res.writeHead(502, { 'Content-Type': 'application/json' });
        res.end('{"error":{"code":"proxy_upstream_failed"}}');
      });
      req.pipe(upstream);
    });
    const port = await freePort();
    await new Promise<void>((resolve) => this.server?.listen(port, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

/** A TCP proxy to Postgres that the run can cut (refuse and reset everything) and restore. */
export class TcpProxy {
  private server = createServer((client) => this.accept(client));
  private sockets = new Set<Socket>();
  private cut = false;
  port = 0;
  constructor(private readonly targetPort: number) {}

  async start(): Promise<void> {
    this.port = await freePort();
    await new Promise<void>((resolve) => this.server.listen(this.port, '127.0.0.1', resolve));
  }

  private accept(client: Socket): void {
    if (this.cut) {
      client.destroy();
      return;
    }
    const upstream = createConnection(this.targetPort, '127.0.0.1');
    for (const s of [client, upstream]) {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
      s.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  }

  /** Resets every open connection and every new one until restore(). */
  sever(): void {
    this.cut = true;
    for (const s of this.sockets) s.destroy();
  }

  restore(): void {
    this.cut = false;
  }

  async stop(): Promise<void> {
    this.sever();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

/** A private redis-server on its own port, without persistence. */
export class PrivateRedis {
  private child: ChildProcess | null = null;
  constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    this.child = track(
      spawn(
        'redis-server',
        ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
        { stdio: 'ignore' },
      ),
    );
    await waitFor(
      () =>
        new Promise<boolean>((resolve) => {
          const s = createConnection(this.port, '127.0.0.1', () => {
            s.destroy();
            resolve(true);
          });
          s.on('error', () => resolve(false));
        }),
      10_000,
      'redis-server up',
    );
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.child = null;
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}
