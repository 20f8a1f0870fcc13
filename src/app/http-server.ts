import { randomUUID } from 'node:crypto';
import { createServer, ServerResponse, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Express } from 'express';
import { ConfigError, type Env } from '../config';

// The HTTP server around the app (contract §19.10). Node's defaults let a client trickle its headers
// for 60 s and its request for 300 s, and check those deadlines only every 30 s: one socket could
// hold a 1 MB /mcp body open for five minutes. Here the headers must arrive within
// HTTP_HEADERS_TIMEOUT_MS and the whole request within HTTP_REQUEST_TIMEOUT_MS, checked often.

/**
 * Node's answers to what it refuses before the app sees a request, with the headers every response
 * carries (contract §5.9, §5.10: nosniff, a request id, no-store): an oversized header may well have
 * held a key.
 */
const CLIENT_ERRORS: Record<string, string> = {
  HPE_HEADER_OVERFLOW: '431 Request Header Fields Too Large',
  ERR_HTTP_REQUEST_TIMEOUT: '408 Request Timeout',
};

/** The headers of the server's own bodiless answers: those every response carries. */
function bodilessHeaders(): Record<string, string> {
  return {
    Connection: 'close',
    'Content-Length': '0',
    'X-Content-Type-Options': 'nosniff',
    'X-Request-ID': randomUUID(),
    'Cache-Control': 'no-store',
  };
}

/** A bodiless answer written straight to a socket no response object holds. */
function bodiless(status: string): string {
  const lines = Object.entries(bodilessHeaders()).map(([name, value]) => `${name}: ${value}\r\n`);
  return `HTTP/1.1 ${status}\r\n${lines.join('')}\r\n`;
}

/** A Host value RFC 9110 §7.2 allows: a name or an IPv4 or bracketed IPv6 address, a port. */
const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._~!$&'()*+,;=%-]+)(?::\d*)?$/;

/**
 * RFC 9112 §3.2: an HTTP/1.1 request without a Host, with two, or with one no host could be named
 * by is answered 400. Node checked only the first case, and answered it without the headers every
 * response carries; the others were served.
 */
function badHost(req: IncomingMessage): boolean {
  const hosts = req.headersDistinct.host ?? [];
  if (hosts.length > 1) return true;
  const host = hosts[0];
  if (host === undefined) return req.httpVersionMajor === 1 && req.httpVersionMinor >= 1;
  return !HOST.test(host);
}

function refuseHost(res: ServerResponse): void {
  res.writeHead(400, bodilessHeaders()).end();
}

/**
 * Requests one connection may have waiting for their answers (contract §19.10). Node parses every
 * request of a read at once and the app answers each, while the answers queue behind the first
 * until the client reads: 1,000 requests for the OpenAPI document in one 40 KB write held 160 MB
 * for as long as the client kept the connection open. The one past this many is answered 429 and
 * closes the connection; a client with at most 16 requests sent and not yet answered never meets it.
 */
export const MAX_PIPELINED = 16;

function refusePipelined(res: ServerResponse): void {
  res.writeHead(429, { ...bodilessHeaders(), 'Retry-After': '1' }).end();
}

/** How often the deadlines of incomplete requests are checked: a fraction of the shorter one. */
export function checkingIntervalMs(env: Pick<Env, 'HTTP_HEADERS_TIMEOUT_MS'>): number {
  return Math.max(10, Math.min(1000, Math.floor(env.HTTP_HEADERS_TIMEOUT_MS / 5)));
}

export function createHttpServer(app: Express, env: Env): Server {
  // The answers still being written on each connection, for a CONNECT pipelined behind them.
  const answering = new WeakMap<Duplex, Set<ServerResponse>>();
  const serve = (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    const open = answering.get(socket) ?? new Set<ServerResponse>();
    answering.set(socket, open);
    open.add(res);
    res.once('close', () => open.delete(res));
    if (open.size > MAX_PIPELINED) refusePipelined(res);
    else if (badHost(req)) refuseHost(res);
    else app(req, res);
  };
  const server = createServer(
    {
      headersTimeout: env.HTTP_HEADERS_TIMEOUT_MS,
      // Node requires the request deadline to be at least the headers' one (config.ts checks).
      requestTimeout: env.HTTP_REQUEST_TIMEOUT_MS,
      connectionsCheckingInterval: checkingIntervalMs(env),
      // badHost answers a missing Host as it answers a bad one (Node's own 400 lacked the headers).
      requireHostHeader: false,
    },
    serve,
  );
  // An Expect other than 100-continue (RFC 9110 §10.1.1: a server MAY answer 417) is served as if
  // it were not there: Node's own 417 lacked the headers every response carries, and 417 is not an
  // answer this API documents.
  server.on('checkExpectation', serve);
  // A CONNECT gets no answer and nothing is ever tunnelled: its connection is closed, as Node
  // closes it with no listener, but only once the answers of the requests pipelined before it are
  // written (Node's closing at once lost a metered page that had been charged). Handing the
  // CONNECT to the app instead crashed the process when an answer still held the socket.
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => {
    // end, not destroy: an answer already written may still sit in the socket's buffer.
    const leave = () => {
      socket.end();
      setTimeout(() => socket.destroy(), 1000).unref();
    };
    const open = answering.get(socket);
    if (!open || open.size === 0) return leave();
    const close = () => {
      if (open.size === 0) leave();
    };
    for (const res of open) res.once('close', () => setImmediate(close));
    // However long those answers take, the connection goes with the request deadline.
    setTimeout(() => socket.destroy(), env.HTTP_REQUEST_TIMEOUT_MS).unref();
  });
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code !== 'ECONNRESET' && socket.writable) {
      socket.end(bodiless(CLIENT_ERRORS[err.code ?? ''] ?? '400 Bad Request'));
    }
    // Whatever the client does next, the socket is gone once the answer is flushed.
    setTimeout(() => socket.destroy(), 1000).unref();
  });
  return server;
}

/**
 * Listens on `port`; a port another process holds (or one this user may not bind) is the
 * operator's to fix, so it is refused with one line, not an unhandled 'error' event's stack.
 */
export function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const refuse = (err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE') {
        reject(new ConfigError(`port ${port} is already in use: stop what holds it, or set PORT`));
      } else if (err.code === 'EACCES') {
        reject(new ConfigError(`port ${port} may not be bound by this user: set PORT`));
      } else reject(err);
    };
    server.once('error', refuse);
    server.listen(port, host, () => {
      server.off('error', refuse);
      resolve();
    });
  });
}
