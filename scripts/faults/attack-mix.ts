import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { Load, sleep, summarize, type Sample } from './load';

// The attack mix of `npm run faults` (contract §19): against one instance, while a paying
// client pages, the cheap anonymous attacks of the security review at a steady pace:
//   - POST /mcp with an Origin of 15,000 slashes and a character after them (it was quadratic:
//     291 ms of event loop a request, so 20 a second stalled every route);
//   - random well-shaped keys (each cost a Postgres lookup, even once the address got 429s);
//   - slow headers: sockets that trickle a header line a second (held for 60 s before);
//   - optionally, MCP batches of 100 taxonomy calls from a Free key (the MCP helper bounds them).
// The paying client is measured quiet, then under attack, then quiet again: under attack it must
// see no 5xx and a p99 within 2x of its quiet p99 (the larger of the two quiet phases, so that a
// drift of the shared machine during the run does not count against the service). The attackers
// run in a child process of their own, so that their sockets and timers do not slow the paying
// client's measurement.

export interface AttackMixOptions {
  /** The one instance under attack. */
  url: string;
  /** The paying client's keys (an account that can pay for what it pages). */
  payingKeys: string[];
  /** A Free key for the MCP batches; none: no batches. */
  batchKey?: string;
  phaseMs?: number;
  /** Attack paces, a second. */
  originsPerSecond?: number;
  randomKeysPerSecond?: number;
  slowSockets?: number;
  batchesPerSecond?: number;
}

export interface AttackMixResult {
  ok: boolean;
  figures: Record<string, unknown>;
}

const randomKey = () =>
  `oppk_${randomBytes(60)
    .toString('base64')
    .replace(/[^A-Za-z0-9]/g, '')
    .slice(0, 40)}`;

/** Fires `fire` `perSecond` times a second (at most `perSecond` in flight) until stopped. */
function paced(perSecond: number, fire: () => Promise<number>) {
  const statuses: Record<string, number> = {};
  let inFlight = 0;
  const timer = setInterval(
    () => {
      if (inFlight >= perSecond) return;
      inFlight++;
      fire()
        .catch(() => 0)
        .then((status) => {
          statuses[status] = (statuses[status] ?? 0) + 1;
          inFlight--;
        });
    },
    Math.max(1, Math.floor(1000 / perSecond)),
  );
  return {
    statuses,
    stop: () => clearInterval(timer),
  };
}

/** `count` sockets that each send a header line a second and never finish; reopened when cut. */
function slowHeaders(url: string, count: number) {
  const { hostname, port } = new URL(url);
  const sockets = new Set<Socket>();
  let running = true;
  const stats = { opened: 0, cutByServer: 0, longestHeldMs: 0 };
  const open = () => {
    if (!running) return;
    const socket = connect(Number(port), hostname);
    const openedAt = Date.now();
    stats.opened++;
    sockets.add(socket);
    socket.write('GET /v1/opportunities HTTP/1.1\r\nHost: x\r\n');
    const timer = setInterval(() => socket.write(`X-Slow: ${Date.now()}\r\n`), 1000);
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      sockets.delete(socket);
      if (!running) return;
      stats.cutByServer++;
      stats.longestHeldMs = Math.max(stats.longestHeldMs, Date.now() - openedAt);
      open();
    });
  };
  for (let i = 0; i < count; i++) open();
  return {
    stats,
    stop() {
      running = false;
      for (const s of sockets) s.destroy();
    },
  };
}

const post = (url: string, headers: Record<string, string>, body: string) =>
  fetch(`${url}/mcp`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      ...headers,
    },
    body,
    signal: AbortSignal.timeout(30_000),
  }).then(async (res) => {
    await res.arrayBuffer();
    return res.status;
  });

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'x', version: '1' },
  },
});

const BATCH = JSON.stringify(
  Array.from({ length: 100 }, (_, id) => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'get_occupation_taxonomy', arguments: {} },
  })),
);

const isServerFailure = (s: Sample) => s.status === 0 || s.status >= 500;

export async function attackMix(options: AttackMixOptions): Promise<AttackMixResult> {
  const phaseMs = options.phaseMs ?? 15_000;
  const paying = new Load({
    baseUrl: () => options.url,
    keys: options.payingKeys,
    workers: 2,
    pauseMs: 50,
    hangMs: 20_000,
  });
  paying.start();
  try {
    await sleep(2000); // warm-up, not measured
    const quietFrom = Date.now();
    await sleep(phaseMs);
    const attackFrom = Date.now();
    const attackers = startAttackers(options);
    await sleep(phaseMs);
    const attackTo = Date.now();
    const attackStats = await attackers.stop();
    await sleep(1000);
    const quietAgainFrom = Date.now();
    await sleep(phaseMs);
    await paying.stop();

    const between = (from: number, to: number) =>
      paying.samples.filter((s) => s.at >= from && s.at < to);
    const quiet = summarize(between(quietFrom, attackFrom));
    const quietAgain = summarize(between(quietAgainFrom, Date.now()));
    const attacked = between(attackFrom, attackTo);
    const underAttack = summarize(attacked);
    const baseline = Math.max(quiet.p99, quietAgain.p99);
    const fivexx = attacked.filter(isServerFailure).length;
    const ok = fivexx === 0 && underAttack.p99 <= 2 * baseline && underAttack.requests > 0;
    return {
      ok,
      figures: {
        payingQuiet: { requests: quiet.requests, p50: quiet.p50, p99: quiet.p99 },
        payingUnderAttack: {
          requests: underAttack.requests,
          p50: underAttack.p50,
          p99: underAttack.p99,
          byStatus: underAttack.byStatus,
        },
        payingQuietAgain: {
          requests: quietAgain.requests,
          p50: quietAgain.p50,
          p99: quietAgain.p99,
        },
        p99Bound: 2 * baseline,
        payingServerFailures: fivexx,
        attackSeconds: Math.round((attackTo - attackFrom) / 1000),
        ...attackStats,
      },
    };
  } finally {
    await paying.stop();
  }
}

export type AttackStats = Record<string, unknown>;

/** The attacks, paced, until `stop()`: what they were answered. */
export function runAttacks(options: AttackMixOptions): { stop(): AttackStats } {
  const origin = `http://a${'/'.repeat(15_000)}x`;
  const originSlashes = paced(options.originsPerSecond ?? 20, () =>
    post(options.url, { Origin: origin }, INITIALIZE),
  );
  const randomKeys = paced(options.randomKeysPerSecond ?? 50, () =>
    fetch(`${options.url}/v1/opportunities/count`, {
      headers: { 'X-API-Key': randomKey() },
      signal: AbortSignal.timeout(30_000),
    }).then(async (res) => (await res.arrayBuffer(), res.status)),
  );
  const batches =
    options.batchKey === undefined
      ? null
      : paced(options.batchesPerSecond ?? 5, () =>
          post(options.url, { 'X-API-Key': options.batchKey ?? '' }, BATCH),
        );
  const slow = slowHeaders(options.url, options.slowSockets ?? 100);
  return {
    stop() {
      originSlashes.stop();
      randomKeys.stop();
      batches?.stop();
      slow.stop();
      return {
        originSlashes: originSlashes.statuses,
        randomKeys: randomKeys.statuses,
        mcpBatches: batches?.statuses ?? 'not sent',
        slowHeaderSockets: slow.stats,
      };
    },
  };
}

/** The attacks in a child process (this file, run with `--attack`): stop() returns their stats. */
function startAttackers(options: AttackMixOptions): { stop(): Promise<AttackStats> } {
  const child = fork(__filename, ['--attack'], { execArgv: ['--import', 'tsx'] });
  child.send({ start: options });
  return {
    stop: () =>
      new Promise<AttackStats>((resolve) => {
        const timer = setTimeout(() => {
          child.kill('SIGKILL');
          resolve({ attackers: 'no answer' });
        }, 30_000);
        child.once('message', (stats) => {
          clearTimeout(timer);
          child.disconnect();
          resolve(stats as AttackStats);
        });
        child.send({ stop: true });
      }),
  };
}

if (process.argv.includes('--attack')) {
  let running: ReturnType<typeof runAttacks> | null = null;
  process.on('message', (message: { start?: AttackMixOptions; stop?: boolean }) => {
    if (message.start) running = runAttacks(message.start);
    if (message.stop) {
      const stats = running?.stop() ?? {};
      // Let the last answers arrive, then report and leave.
      setTimeout(() => process.send?.(stats, () => process.exit(0)), 1000);
    }
  });
}
