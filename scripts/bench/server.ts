import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { childrenOf } from './proc';
import { freePort } from '../free-port';

// Starts the API as in production: `npm run build`, then node on the compiled JavaScript with
// NODE_ENV=production and every service configured. Where the build does not run from dist yet,
// it falls back to node with tsx's loader, and says so. With `processes` > 1 (API_PROCESSES) the
// started process is a primary: the API is it and its children, and it is ready once every one of
// them listens (the primary's `API processes listening` line).

const ROOT = path.resolve(__dirname, '../..');

export interface RunningApi {
  /** The process started: the API itself, or the primary of `processes` API processes. */
  pid: number;
  processes: number;
  /** The started process and its children (the API processes of a primary). */
  pids(): number[];
  url: string;
  mode: string;
  stop(): Promise<void>;
}

export { freePort };

async function waitReady(
  url: string,
  child: ChildProcess,
  timeoutMs: number,
  allListening: () => boolean,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) return false;
    try {
      const res = await fetch(`${url}/readyz`);
      // One process answering is not all of them: the first would take every connection.
      if (res.ok && allListening()) return true;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return false;
}

/** The flags between `node` and the entry in package.json's start:prod script. */
function startProdFlags(): string[] {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  return (pkg.scripts['start:prod'] ?? '').split(' ').filter((word) => word.startsWith('--'));
}

function compiledEntry(): string | null {
  const built = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'ignore' });
  if (built.status !== 0) return null;
  for (const candidate of ['dist/main.js']) {
    if (existsSync(path.join(ROOT, candidate))) return candidate;
  }
  return null;
}

export async function startApi(
  env: Record<string, string>,
  extraNodeArgs: string[] = [],
  logFile = path.join(ROOT, '.cache/bench-api.log'),
  processes = 1,
): Promise<RunningApi> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const entry = compiledEntry();
  const attempts: Array<{ mode: string; args: string[] }> = [];
  // The node flags of `npm run start:prod` (and of the image's CMD): the bench measures what runs.
  const args = entry ? [...startProdFlags(), entry] : [];
  if (entry) attempts.push({ mode: `node ${args.join(' ')} (compiled)`, args });
  attempts.push({
    mode: 'node --require tsx/cjs src/main.ts (compiled build not runnable)',
    args: ['--require', 'tsx/cjs', 'src/main.ts'],
  });
  mkdirSync(path.dirname(logFile), { recursive: true });
  const log = createWriteStream(logFile, { flags: 'w' });
  for (const attempt of attempts) {
    const child = spawn(process.execPath, [...extraNodeArgs, ...attempt.args], {
      cwd: ROOT,
      env: {
        ...process.env,
        ...env,
        NODE_ENV: 'production',
        PORT: String(port),
        API_PROCESSES: String(processes),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.pipe(log, { end: false });
    child.stderr?.pipe(log, { end: false });
    let allListening = processes === 1;
    const watch = (chunk: Buffer) => {
      if (chunk.toString().includes('"msg":"API processes listening"')) allListening = true;
    };
    child.stderr?.on('data', watch);
    const ready = await waitReady(url, child, 60_000, () => allListening);
    child.stderr?.off('data', watch);
    if (ready) {
      const pid = child.pid ?? 0;
      return {
        pid,
        processes,
        pids: () => [pid, ...(processes > 1 ? childrenOf(pid) : [])],
        url,
        mode: attempt.mode,
        stop: () =>
          new Promise((resolve) => {
            if (child.exitCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
          }),
      };
    }
    child.kill('SIGKILL');
  }
  throw new Error(`the API did not become ready; see ${logFile}`);
}
