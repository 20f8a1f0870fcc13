import { connect } from 'node:net';

// Requests as bytes, for what fetch refuses to send (invalid UTF-8, raw control characters,
// oversized headers): the server must still answer with a documented status (contract §20.4).

export interface RawReply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends `head` (request line and headers, CRLF-separated, without the blank line) and `body`. */
export function rawRequest(baseUrl: string, head: string | Buffer, body = ''): Promise<RawReply> {
  const { hostname } = new URL(baseUrl);
  const headBytes = typeof head === 'string' ? Buffer.from(head, 'latin1') : head;
  const closing = Buffer.from(
    `\r\nHost: ${hostname}\r\nConnection: close\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
    'latin1',
  );
  return exchange(baseUrl, Buffer.concat([headBytes, closing, Buffer.from(body)]));
}

/**
 * Sends `request` exactly as given (request line, headers and the blank line: no Host or
 * Connection added), reads until the server closes the connection, and parses the first answer.
 */
export function rawExchange(baseUrl: string, request: string): Promise<RawReply> {
  return exchange(baseUrl, Buffer.from(request, 'latin1'));
}

function exchange(baseUrl: string, bytes: Buffer): Promise<RawReply> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    // A server that answers before reading a large body (413) may reset the connection while the
    // rest is still being written: the reply already received is what counts.
    socket.on('error', (err) => {
      if (chunks.length === 0) reject(err);
    });
    socket.on('close', () => {
      try {
        resolve(parseReply(Buffer.concat(chunks).toString('latin1')));
      } catch (err) {
        reject(err instanceof Error ? err : new Error(String(err)));
      }
    });
    // write, not end: Node's HTTP server drops a request whose client half-closes before the answer
    // is ready (no httpAllowHalfOpen); `Connection: close` makes the server close after answering.
    socket.write(bytes);
  });
}

function parseReply(text: string): RawReply {
  const split = text.indexOf('\r\n\r\n');
  if (split < 0) throw new Error(`no HTTP reply: ${JSON.stringify(text.slice(0, 200))}`);
  const [statusLine = '', ...lines] = text.slice(0, split).split('\r\n');
  const match = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
  if (!match?.[1]) throw new Error(`bad status line: ${statusLine}`);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = text.slice(split + 4);
  if (headers['transfer-encoding'] === 'chunked') body = dechunk(body);
  return { status: Number(match[1]), headers, body: Buffer.from(body, 'latin1').toString('utf8') };
}

function dechunk(text: string): string {
  let out = '';
  let rest = text;
  for (;;) {
    const eol = rest.indexOf('\r\n');
    const size = parseInt(rest.slice(0, eol), 16);
    if (!size) return out;
    out += rest.slice(eol + 2, eol + 2 + size);
    rest = rest.slice(eol + 4 + size);
  }
}
