import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFileSync, unlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { procStat } from '../support/proc-stat';

// scripts/opensearch-local.sh run as a child process against FAKE distributions
// (OPENSEARCH_DIST_DIR): one whose bin/opensearch writes its pid file late, one that dies, one that
// never becomes healthy. Each case gets its own copy of the script (so its own checkout, state and
// lock) and its own OPENSEARCH_LOCAL_ROOT.

const run = promisify(execFile);
const SCRIPT = path.resolve(__dirname, '../../scripts/opensearch-local.sh');
const tmpRoot = mkdtempSync(path.join(os.tmpdir(), 'os-local-test-'));
// The fake runs as the unprivileged OpenSearch user when the tests run as root.
chmodSync(tmpRoot, 0o755);

type Mode = 'slow' | 'dies' | 'unhealthy';

// Honours -d like the real launcher (backgrounds itself and returns), so the old script, which
// daemonised and trusted the pid file alone, can be run against it too.
const FAKE_LAUNCHER = `#!/usr/bin/env bash
dir="$(cd "$(dirname "$0")/.." && pwd)"
args=()
daemon=0
for a in "$@"; do if [[ "$a" == -d ]]; then daemon=1; else args+=("$a"); fi; done
if (( daemon )); then
  /usr/bin/node "$dir/server.js" "\${args[@]}" >/dev/null 2>&1 </dev/null &
  exit 0
fi
exec /usr/bin/node "$dir/server.js" "\${args[@]}"
`;

// Writes its pid file after pidDelayMs (a cold JVM), then answers the health call.
const FAKE_SERVER = `
const fs = require('fs');
const http = require('http');
const cfg = JSON.parse(fs.readFileSync(__dirname + '/fake.json', 'utf8'));
const args = process.argv.slice(2);
const pidFile = args[args.indexOf('-p') + 1];
const port = Number((args.find((a) => a.startsWith('-Ehttp.port=')) || '').split('=')[1]);
if (cfg.mode === 'dies') {
  console.error('fake: bootstrap checks failed');
  setTimeout(() => process.exit(1), 300);
} else {
  setTimeout(() => {
    fs.writeFileSync(pidFile, String(process.pid));
    http
      .createServer((req, res) => {
        const healthy = cfg.mode !== 'unhealthy';
        res.writeHead(healthy ? 200 : 503, { 'content-type': 'application/json' });
        // The JVM options it was launched with, so a test can see what the script passed.
        const javaOpts = process.env.OPENSEARCH_JAVA_OPTS;
        res.end(JSON.stringify({ cluster_name: 'fake', status: healthy ? 'green' : 'red', javaOpts }));
      })
      .listen(port, '127.0.0.1');
  }, cfg.pidDelayMs);
}
`;

interface World {
  script: string;
  env: NodeJS.ProcessEnv;
  dataDir: string;
  stateFile: string;
}

let counter = 0;
const worlds: World[] = [];

function makeWorld(mode: Mode, pidDelayMs = 0, startTimeout = 120): World {
  const dir = path.join(tmpRoot, `w${counter++}`);
  const checkout = path.join(dir, 'checkout');
  const dist = path.join(dir, 'dist');
  const localRoot = path.join(dir, 'local');
  for (const d of [path.join(checkout, 'scripts'), path.join(dist, 'bin'), localRoot])
    mkdirSync(d, { recursive: true });
  for (const d of [dir, dist, path.join(dist, 'bin')]) chmodSync(d, 0o755);
  const script = path.join(checkout, 'scripts', 'opensearch-local.sh');
  copyFileSync(SCRIPT, script);
  writeFileSync(path.join(dist, 'bin', 'opensearch'), FAKE_LAUNCHER, { mode: 0o755 });
  writeFileSync(path.join(dist, 'server.js'), FAKE_SERVER, { mode: 0o644 });
  writeFileSync(path.join(dist, 'fake.json'), JSON.stringify({ mode, pidDelayMs }), {
    mode: 0o644,
  });
  const key = execFileSync('bash', [
    '-c',
    `printf '%s' "$1" | sha256sum | cut -c1-12`,
    '_',
    checkout,
  ])
    .toString()
    .trim();
  const world: World = {
    script,
    env: {
      ...process.env,
      OPENSEARCH_LOCAL_ROOT: localRoot,
      OPENSEARCH_DIST_DIR: dist,
      OPENSEARCH_START_TIMEOUT: String(startTimeout),
    },
    dataDir: path.join(localRoot, key, 'data'),
    stateFile: path.join(checkout, '.cache', 'opensearch', 'state'),
  };
  worlds.push(world);
  return world;
}

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

async function script(world: World, cmd: string): Promise<Outcome> {
  try {
    const { stdout, stderr } = await run('bash', [world.script, cmd], { env: world.env });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

/** Processes whose command line names the world's data folder (the fake "JVM"). */
function instances(world: World): number[] {
  const out = execFileSync('ps', ['-eo', 'pid=,args=']).toString();
  return out
    .split('\n')
    .filter((l) => l.includes(`-Epath.data=${world.dataDir}`) && !l.includes('ps -eo'))
    .map((l) => Number(l.trim().split(/\s+/)[0]));
}

// SIGKILL is delivered at once but the process leaves the table a moment later; under load that
// moment is long enough for the next command to find it still running. A zombie counts as gone.
async function gone(pid: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if ((procStat(pid)?.state ?? 'Z') === 'Z') return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`pid ${pid} still runs 5 s after SIGKILL`);
}

async function health(url: string): Promise<number> {
  const res = await fetch(`${url}/_cluster/health`);
  return res.status;
}

afterAll(() => {
  for (const w of worlds) for (const pid of instances(w)) process.kill(pid, 'SIGKILL');
  rmSync(tmpRoot, { recursive: true, force: true });
});

it('waits for a launcher slow to write its pid file, and records the pid from launch', async () => {
  const w = makeWorld('slow', 8000);
  const started = await script(w, 'start');
  expect(started.stderr).not.toContain('exited');
  expect(started.code).toBe(0);
  const url = started.stdout.trim();
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  expect(await health(url)).toBe(200);
  const running = instances(w);
  expect(running).toHaveLength(1);
  expect(readFileSync(w.stateFile, 'utf8')).toContain(`PID=${running[0]}\n`);
  expect(await script(w, 'status')).toMatchObject({ code: 0, stdout: `${url}\n` });

  await script(w, 'stop');
  expect(instances(w)).toEqual([]);
  expect(await script(w, 'status')).toMatchObject({ code: 1 });
});

it('adopts the running instance when the state file is lost or its PID empty', async () => {
  const w = makeWorld('slow', 500);
  const first = await script(w, 'start');
  expect(first.code).toBe(0);
  const [pid] = instances(w);

  unlinkSync(w.stateFile);
  const again = await script(w, 'start');
  expect(again).toMatchObject({ code: 0, stdout: first.stdout });
  expect(instances(w)).toEqual([pid]);

  writeFileSync(w.stateFile, `URL=\nPID=\nHOME_DIR=\nVERSION=custom\n`);
  const third = await script(w, 'start');
  expect(third).toMatchObject({ code: 0, stdout: first.stdout });
  expect(instances(w)).toEqual([pid]);
  expect(readFileSync(w.stateFile, 'utf8')).toContain(`PID=${pid}\n`);

  // Lost state: status still finds it, stop still stops it.
  unlinkSync(w.stateFile);
  expect(await script(w, 'status')).toMatchObject({ code: 0, stdout: first.stdout });
  await script(w, 'stop');
  expect(instances(w)).toEqual([]);
});

it('two concurrent starts share one instance', async () => {
  const w = makeWorld('slow', 2000);
  const [a, b] = await Promise.all([script(w, 'start'), script(w, 'start')]);
  expect(a.code).toBe(0);
  expect(b).toMatchObject({ code: 0, stdout: a.stdout });
  expect(instances(w)).toHaveLength(1);
  await script(w, 'stop');
});

it('restarts after the instance was killed with SIGKILL', async () => {
  const w = makeWorld('slow', 200);
  const first = await script(w, 'start');
  const [pid] = instances(w);
  if (!pid) throw new Error('no instance running');
  process.kill(pid, 'SIGKILL');
  await gone(pid);
  const again = await script(w, 'start');
  expect(again.code).toBe(0);
  expect(again.stderr).toContain('is gone');
  expect(await health(again.stdout.trim())).toBe(200);
  expect(instances(w)).toHaveLength(1);
  expect(instances(w)).not.toEqual([pid]);
  expect(first.code).toBe(0);
  await script(w, 'stop');
});

it('reports a launcher that dies, with its output, well before the deadline', async () => {
  // The deadline (120 s) is longer than this test's timeout: only noticing the death passes.
  const w = makeWorld('dies');
  const out = await script(w, 'start');
  expect(out.code).not.toBe(0);
  expect(out.stderr).toContain('exited during start');
  expect(out.stderr).toContain('fake: bootstrap checks failed');
  expect(instances(w)).toEqual([]);
});

it('stops what it started when the deadline passes: no orphan', async () => {
  const w = makeWorld('unhealthy', 0, 4);
  const out = await script(w, 'start');
  expect(out.code).not.toBe(0);
  expect(out.stderr).toContain('did not become healthy in 4 s');
  expect(instances(w)).toEqual([]);
});

it('launches with C1 only when OPENSEARCH_JIT=c1, with the full tiered compilers by default', async () => {
  const javaOpts = async (w: World): Promise<string> => {
    const started = await script(w, 'start');
    expect(started.code).toBe(0);
    const res = await fetch(`${started.stdout.trim()}/_cluster/health`);
    const { javaOpts: opts } = (await res.json()) as { javaOpts: string };
    await script(w, 'stop');
    return opts;
  };
  const quick = makeWorld('slow');
  Object.assign(quick.env, { OPENSEARCH_JIT: 'c1', OPENSEARCH_HEAP: '512m' });
  const c1 = await javaOpts(quick);
  expect(c1.split(' ')).toEqual(['-Xms512m', '-Xmx512m', '-XX:TieredStopAtLevel=1']);

  const plain = makeWorld('slow');
  delete plain.env.OPENSEARCH_JIT;
  plain.env.OPENSEARCH_HEAP = '512m';
  expect((await javaOpts(plain)).split(' ')).toEqual(['-Xms512m', '-Xmx512m']);
});

it('refuses an unknown OPENSEARCH_JIT before launching anything', async () => {
  const w = makeWorld('slow');
  w.env.OPENSEARCH_JIT = 'fast';
  const out = await script(w, 'start');
  expect(out.code).toBe(2);
  expect(out.stderr).toContain("OPENSEARCH_JIT must be tiered or c1, not 'fast'");
  expect(instances(w)).toEqual([]);
});
