import { spawn, type ChildProcess } from 'node:child_process';
import {
  chownSync,
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openPool } from './pg-pools';
import { freePort } from './server-process';
import type { IssuedCertificate } from './throwaway-ca';

// A Postgres and a Redis of the test's own, serving TLS with a throwaway CA's
// certificate on an ephemeral port of 127.0.0.1, so the shared services are never reconfigured
// or restarted. Servers refuse to run as root: as root, they run as `nobody`.

/** uid/gid to run the servers as: nobody when we are root, else ourselves. */
function unprivileged(): { uid?: number; gid?: number } {
  return process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
}

function scratchDir(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  const { uid, gid } = unprivileged();
  if (uid !== undefined && gid !== undefined) chownSync(dir, uid, gid);
  return dir;
}

/** The server's copy of its certificate and key, owned by the server's user, key 0600. */
function install(cert: IssuedCertificate, dir: string): { certFile: string; keyFile: string } {
  const certFile = path.join(dir, 'server.pem');
  const keyFile = path.join(dir, 'server.key');
  copyFileSync(cert.certFile, certFile);
  copyFileSync(cert.keyFile, keyFile);
  const { uid, gid } = unprivileged();
  for (const f of [certFile, keyFile])
    if (uid !== undefined && gid !== undefined) chownSync(f, uid, gid);
  return { certFile, keyFile };
}

export interface ThrowawayServer {
  port: number;
  /** The server's output so far (for a failure's report). */
  output(): string;
  stop(): Promise<void>;
}

function supervise(child: ChildProcess, dir: string, port: number): ThrowawayServer {
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    port,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGINT'); // Postgres: fast shutdown; Redis: exits too
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function until(ready: () => Promise<boolean>, what: string, server: ThrowawayServer) {
  for (let i = 0; i < 300; i++) {
    if (await ready()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  await server.stop();
  throw new Error(`${what} did not start:\n${server.output()}`);
}

/** The directory of initdb and postgres: PG_BIN, else the newest /usr/lib/postgresql/N/bin. */
export function postgresBin(): string | undefined {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(path.join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], 'bin') : undefined;
}

export interface TlsPostgres extends ThrowawayServer {
  /** The role `app` logs in with this password (scram-sha-256); `postgres` is trusted. */
  appPassword: string;
}

/**
 * A Postgres cluster that accepts TLS connections only (`hostssl`; plain ones are rejected by
 * pg_hba), with the superuser `postgres` trusted and a role `app` that needs its password.
 */
export async function startTlsPostgres(bin: string, cert: IssuedCertificate): Promise<TlsPostgres> {
  const dir = scratchDir('pg-tls-');
  const data = path.join(dir, 'data');
  const port = await freePort();
  const ids = unprivileged();
  await new Promise<void>((resolve, reject) => {
    const initdb = spawn(
      path.join(bin, 'initdb'),
      ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8', '--locale=C'],
      { ...ids, stdio: 'pipe' },
    );
    let err = '';
    initdb.stderr.on('data', (d: Buffer) => (err += d.toString()));
    initdb.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`initdb: ${err}`))));
  });
  const { certFile, keyFile } = install(cert, data);
  writeFileSync(
    path.join(data, 'pg_hba.conf'),
    [
      'local all all trust',
      'hostssl all postgres 127.0.0.1/32 trust',
      'hostssl all app 127.0.0.1/32 scram-sha-256',
      'host all all 127.0.0.1/32 reject',
    ].join('\n') + '\n',
  );
  const child = spawn(
    path.join(bin, 'postgres'),
    [
      '-D',
      data,
      '-p',
      String(port),
      '-k',
      dir,
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'ssl=on',
      '-c',
      `ssl_cert_file=${certFile}`,
      '-c',
      `ssl_key_file=${keyFile}`,
      '-c',
      'fsync=off',
      '-c',
      'shared_buffers=16MB',
      '-c',
      'max_connections=40',
    ],
    { ...ids, stdio: 'pipe' },
  );
  const server = supervise(child, dir, port);
  const admin = () =>
    openPool({
      connectionString: `postgresql://postgres@127.0.0.1:${port}/postgres`,
      ssl: { rejectUnauthorized: false },
      max: 1,
    });
  await until(
    async () => {
      const pool = admin();
      try {
        await pool.query('SELECT 1');
        return true;
      } catch {
        return false;
      } finally {
        await pool.end();
      }
    },
    'postgres',
    server,
  );
  const appPassword = 'app-password-for-tls-test';
  const pool = admin();
  try {
    await pool.query(`CREATE ROLE app LOGIN CREATEDB PASSWORD '${appPassword}'`);
  } finally {
    await pool.end();
  }
  return { ...server, appPassword };
}

export interface TlsRedis extends ThrowawayServer {
  /** ACL user `app` with this password; the default user is off. */
  user: string;
  password: string;
}

/** A Redis serving TLS only (no plain port), with an ACL user and the default user disabled. */
export async function startTlsRedis(cert: IssuedCertificate, caFile: string): Promise<TlsRedis> {
  const dir = scratchDir('redis-tls-');
  const port = await freePort();
  const { certFile, keyFile } = install(cert, dir);
  const serverCa = path.join(dir, 'ca.pem');
  copyFileSync(caFile, serverCa);
  const password = 'redis-acl-password-for-tls-test';
  const conf = path.join(dir, 'redis.conf');
  writeFileSync(
    conf,
    [
      'port 0',
      `tls-port ${port}`,
      'bind 127.0.0.1',
      `tls-cert-file ${certFile}`,
      `tls-key-file ${keyFile}`,
      `tls-ca-cert-file ${serverCa}`,
      'tls-auth-clients no',
      `dir ${dir}`,
      'save ""',
      'appendonly no',
      'user default off',
      `user app on >${password} ~* &* +@all`,
    ].join('\n') + '\n',
  );
  const child = spawn('redis-server', [conf], { ...unprivileged(), stdio: 'pipe' });
  const server = supervise(child, dir, port);
  await until(
    async () => /Ready to accept connections/.test(server.output()) || child.exitCode !== null,
    'redis-server',
    server,
  );
  if (child.exitCode !== null) {
    await server.stop();
    throw new Error(`redis-server (TLS) did not start:\n${server.output()}`);
  }
  return { ...server, user: 'app', password };
}
