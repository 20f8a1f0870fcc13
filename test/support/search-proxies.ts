import { createHash, createHmac, type BinaryLike } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import {
  createServer as createHttpServer,
  request,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { SignatureV4 } from '@smithy/signature-v4';

// The real local OpenSearch behind the kinds of front a managed cluster has: TLS with a
// private CA, HTTP basic authentication, and SigV4 signature checks as Amazon OpenSearch makes them.
// Each listens on 127.0.0.1 on an ephemeral port and forwards what it accepts, untouched.

export interface Refusal {
  status: number;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
}

/** Says why a request is refused, or undefined to forward it. */
export type Gate = (req: IncomingMessage, body: Buffer) => Promise<Refusal | undefined>;

export interface SearchProxy {
  url: string;
  port: number;
  /** Requests forwarded / refused so far. */
  forwarded: number;
  refused: number;
  close(): Promise<void>;
}

export interface ProxyOptions {
  /** The real OpenSearch (http). */
  upstream: string;
  /** Serve TLS with this certificate and key (PEM files). */
  tls?: { certFile: string; keyFile: string };
  gate?: Gate;
}

/** Headers that describe one hop, not the request: never forwarded. */
const HOP = new Set(['host', 'connection', 'keep-alive', 'transfer-encoding', 'authorization']);

export async function startSearchProxy(options: ProxyOptions): Promise<SearchProxy> {
  const target = new URL(options.upstream);
  const proxy = { url: '', port: 0, forwarded: 0, refused: 0, close: async () => {} };
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      void (options.gate ?? (async () => undefined))(req, body).then((refusal) => {
        if (refusal) {
          proxy.refused++;
          res.writeHead(refusal.status, {
            'content-type': 'application/json',
            ...refusal.headers,
          });
          res.end(JSON.stringify(refusal.body));
          return;
        }
        proxy.forwarded++;
        const headers: Record<string, string | string[]> = {};
        for (const [k, v] of Object.entries(req.headers))
          if (v !== undefined && !HOP.has(k) && !k.startsWith('x-amz-')) headers[k] = v;
        headers['content-length'] = String(body.length);
        const out = request(
          {
            host: target.hostname,
            port: target.port,
            method: req.method,
            path: req.url,
            headers,
          },
          (up) => {
            res.writeHead(up.statusCode ?? 502, up.headers);
            up.pipe(res);
          },
        );
        out.on('error', () => {
          res.writeHead(502);
          res.end();
        });
        out.end(body);
      });
    });
  };
  const server: Server = options.tls
    ? createHttpsServer(
        {
          cert: await readFile(options.tls.certFile),
          key: await readFile(options.tls.keyFile),
        },
        handle,
      )
    : createHttpServer(handle);
  // A client refusing our certificate ends its handshake: nothing to report here.
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.port = (server.address() as AddressInfo).port;
  proxy.url = `${options.tls ? 'https' : 'http'}://127.0.0.1:${proxy.port}`;
  proxy.close = async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return proxy;
}

/** The security plugin's answer to missing or wrong credentials. */
export function basicAuthGate(username: string, password: string): Gate {
  const expected = `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
  return async (req) =>
    req.headers.authorization === expected
      ? undefined
      : {
          status: 401,
          headers: { 'www-authenticate': 'Basic realm="OpenSearch Security"' },
          body: { error: 'Unauthorized', status: 401 },
        };
}

export interface AwsKey {
  accessKeyId: string;
  secretAccessKey: string;
}

const AUTHORIZATION =
  /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/;

/** What Amazon OpenSearch answers (403, with its words) to a request it cannot verify. */
const forbidden = (message: string): Refusal => ({ status: 403, body: { message } });

/**
 * Verifies each request's SigV4 signature as AWS does, with an independent implementation
 * (@smithy/signature-v4, the one the AWS SDK uses): the key must be the known one, the body must
 * hash to x-amz-content-sha256, and the signature over the signed headers must match.
 */
export function sigv4Gate(key: AwsKey, region: string, service: string): Gate {
  const signer = new SignatureV4({ credentials: key, region, service, sha256: NodeSha256 });
  return async (req, body) => {
    const m = AUTHORIZATION.exec(req.headers.authorization ?? '');
    if (!m) return forbidden('Authorization header requires a SigV4 signature.');
    const [, accessKeyId, , keyRegion, keyService, signedHeaders, signature] = m;
    if (accessKeyId !== key.accessKeyId)
      return forbidden('The security token included in the request is invalid.');
    if (keyRegion !== region || keyService !== service)
      return forbidden(`Credential should be scoped to a valid region and service ${service}.`);
    if (req.headers['x-amz-content-sha256'] !== sha256Hex(body))
      return forbidden(
        "The provided 'x-amz-content-sha256' header does not match what was computed.",
      );
    const url = new URL(req.url ?? '/', 'http://proxy');
    const query: Record<string, string | string[]> = {};
    for (const [k, v] of url.searchParams) {
      const seen = query[k];
      query[k] = seen === undefined ? v : [...(Array.isArray(seen) ? seen : [seen]), v];
    }
    const headers: Record<string, string> = {};
    for (const name of (signedHeaders ?? '').split(';')) {
      const value = req.headers[name];
      headers[name] = Array.isArray(value) ? value.join(',') : (value ?? '');
    }
    const signed = await signer.sign(
      {
        method: req.method ?? 'GET',
        protocol: 'http:',
        hostname: req.headers.host ?? '',
        path: url.pathname,
        query,
        headers,
        body,
      },
      { signingDate: amzDate(req.headers['x-amz-date']) },
    );
    const expected = AUTHORIZATION.exec(String(signed.headers.authorization ?? ''))?.[6];
    return expected === signature
      ? undefined
      : forbidden(
          'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method.',
        );
  };
}

function amzDate(value: string | string[] | undefined): Date {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(String(value ?? ''));
  if (!m) return new Date(0);
  return new Date(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}Z`);
}

function sha256Hex(data: BinaryLike): string {
  return createHash('sha256').update(data).digest('hex');
}

type SourceData = string | ArrayBuffer | ArrayBufferView;

function bytes(data: SourceData): string | Buffer {
  if (typeof data === 'string') return data;
  return ArrayBuffer.isView(data)
    ? Buffer.from(data.buffer, data.byteOffset, data.byteLength)
    : Buffer.from(data);
}

/** The hash constructor @smithy/signature-v4 wants, from node:crypto (HMAC when given a secret). */
export class NodeSha256 {
  private readonly hash;
  constructor(secret?: SourceData) {
    this.hash = secret === undefined ? createHash('sha256') : createHmac('sha256', bytes(secret));
  }
  update(data: SourceData): void {
    this.hash.update(bytes(data));
  }
  digest(): Promise<Uint8Array> {
    return Promise.resolve(new Uint8Array(this.hash.digest()));
  }
}
