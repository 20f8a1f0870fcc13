import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { openPool } from '../support/pg-pools';
import { createSearchClient } from '../../src/search/client';
import { aliasForDatabase, dropIndices } from '../../src/search/index-manager';
import { ensureDatabase } from '../../src/store/db';
import { freePort } from '../../scripts/free-port';

// The production build as the image lays it out: tsc output in dist/ beside
// migrations/ and index-mappings/, started with plain node from another working directory in
// production mode against the real services; the built CLI makes the account and key. So a path
// that only works from src/ or through tsx fails here.

const ROOT = path.join(__dirname, '..', '..');
const run = promisify(execFile);
const SLOW = 300_000; // tsc on a loaded two-core machine; never a measured bound

let app: string;
let env: NodeJS.ProcessEnv;
let server: ChildProcess | undefined;
let baseUrl: string;
let db: string | undefined;
const output: string[] = [];

async function cli(...args: string[]): Promise<Record<string, unknown>> {
  const { stdout } = await run(
    'node',
    [path.join(app, 'dist', 'cli', 'main.js'), ...args, '--json'],
    {
      cwd: tmpdir(),
      env,
    },
  );
  return JSON.parse(stdout) as Record<string, unknown>;
}

// tsc builds incrementally into an ignored folder, then the output is copied into the app: a run
// after an earlier one re-checks and re-emits only the files that changed (about 3 s of CPU
// instead of 9); a fresh clone builds everything. A type error still fails the build and the test.
const BUILD = path.join(ROOT, '.cache', 'built-server', 'dist');
const BUILD_INFO = '.tsbuildinfo';

beforeAll(async () => {
  app = mkdtempSync(path.join(tmpdir(), 'built-app-'));
  await run(
    path.join(ROOT, 'node_modules', '.bin', 'tsc'),
    [
      '-p',
      path.join(ROOT, 'tsconfig.build.json'),
      '--outDir',
      BUILD,
      '--incremental',
      '--tsBuildInfoFile',
      path.join(BUILD, BUILD_INFO),
    ],
    { cwd: ROOT },
  );
  cpSync(BUILD, path.join(app, 'dist'), {
    recursive: true,
    filter: (from) => path.basename(from) !== BUILD_INFO,
  });
  for (const dir of ['migrations', 'index-mappings']) {
    cpSync(path.join(ROOT, dir), path.join(app, dir), { recursive: true });
  }
  cpSync(path.join(ROOT, 'package.json'), path.join(app, 'package.json'));
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(app, 'node_modules'), 'dir');

  db = `test_built_${randomBytes(6).toString('hex')}`;
  const admin = new URL(
    process.env.TEST_DATABASE_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres',
  );
  admin.pathname = `/${db}`;
  await ensureDatabase(admin.toString());
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  env = {
    PATH: process.env.PATH,
    NODE_ENV: 'production',
    PORT: String(port),
    DATABASE_URL: admin.toString(),
    OPENSEARCH_URL: process.env.OPENSEARCH_URL,
    REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
    CURSOR_SIGNING_KEYS: `built=${randomBytes(24).toString('hex')}`,
  };
  server = spawn('node', [path.join(app, 'dist', 'main.js')], { cwd: tmpdir(), env });
  server.stdout?.on('data', (d: Buffer) => output.push(d.toString()));
  server.stderr?.on('data', (d: Buffer) => output.push(d.toString()));
  for (;;) {
    if (server.exitCode !== null) throw new Error(`the built server exited: ${output.join('')}`);
    const ready = await fetch(`${baseUrl}/readyz`).then(
      (r) => r.status,
      () => 0,
    );
    if (ready === 200) break;
    await new Promise((r) => setTimeout(r, 250));
  }
}, SLOW);

afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((r) => server?.once('exit', r));
    server.kill('SIGTERM');
    await exited;
  }
  if (app) rmSync(app, { recursive: true, force: true });
  // What the built server made is this test's to remove: its database and its index.
  if (db) {
    const search = createSearchClient(process.env.OPENSEARCH_URL ?? '', 30_000);
    await dropIndices(search, aliasForDatabase(db)).catch(() => undefined);
    await search.close();
    const admin = openPool({
      connectionString:
        process.env.TEST_DATABASE_ADMIN_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres',
      max: 1,
    });
    await admin.query(`DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`);
    await admin.end();
  }
});

it(
  'answers /readyz and an authenticated list, with a key made by the built CLI',
  async () => {
    const account = await cli('account', 'create', '--plan', 'free');
    const key = await cli('key', 'create', '--account', String(account.id));
    const res = await fetch(`${baseUrl}/v1/opportunities?limit=5`, {
      headers: { 'X-API-Key': String(key.key) },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: unknown[]; pagination: { returned: number } };
    expect(body.pagination.returned).toBe(body.data.length);
    // Production mode: no demo account was made (contract §22.4).
    expect(output.join('')).not.toContain('demo account');
  },
  SLOW,
);

// npm forwards a signal to its script's shell; a shell that ran node as its child died of it and
// left the server serving, orphaned, after `kill <npm pid>` (a process manager's stop). The start
// scripts exec node, so the signal is the server's own: it drains and exits.
it(
  'SIGTERM to `npm run start:prod` stops the server itself: it drains, exits 0 and leaves no orphan',
  async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const npm = spawn('npm', ['run', '--silent', 'start:prod'], {
      cwd: app,
      env: { ...env, PORT: String(port) },
    });
    const logs: string[] = [];
    npm.stdout?.on('data', (d: Buffer) => logs.push(d.toString()));
    npm.stderr?.on('data', (d: Buffer) => logs.push(d.toString()));
    const npmExited = new Promise((r) => npm.once('exit', r));
    try {
      while ((await readyz(url)) !== 200) {
        if (npm.exitCode !== null) throw new Error(`start:prod exited: ${logs.join('')}`);
        await new Promise((r) => setTimeout(r, 250));
      }
      npm.kill('SIGTERM');
      await npmExited;
      // Drained: the listener closes within about a second, then the process ends. An orphan
      // would keep answering 200 for good.
      const deadline = Date.now() + 60_000;
      while ((await readyz(url)) !== 0 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 250));
      }
      expect(await readyz(url)).toBe(0);
      for (;;) {
        if (processesIn(app).length === 0 || Date.now() > deadline) break;
        await new Promise((r) => setTimeout(r, 250));
      }
      expect(processesIn(app)).toEqual([]);
      expect(logs.join('')).toMatch(/"msg":"stopped"/);
    } finally {
      for (const pid of processesIn(app)) process.kill(pid, 'SIGKILL');
    }
  },
  SLOW,
);

function readyz(url: string): Promise<number> {
  return fetch(`${url}/readyz`).then(
    (r) => r.status,
    () => 0,
  );
}

/** Processes whose working directory is `dir` (the start script's, which only npm uses). */
function processesIn(dir: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readlinkSync(`/proc/${pid}/cwd`) === dir;
      } catch {
        return false; // gone, or not ours to read
      }
    })
    .map(Number);
}
