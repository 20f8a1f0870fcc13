import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

// CPU and memory of the processes under test, from /proc (Linux). CPU is utime + stime in clock
// ticks (USER_HZ, 100 a second on Linux): deltas over a whole workload divided by its requests.

const TICK_MS = 10;

/** CPU milliseconds used so far by a process; 0 when it is gone (a Postgres backend that ended). */
export function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may contain spaces) start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return 0;
  }
}

export function rssMb(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * The processes whose parent is `pid` (from /proc): the API processes of a primary started with
 * API_PROCESSES > 1 (the primary holds the listening socket and hands connections to them).
 */
export function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) {
        children.push(Number(entry));
      }
    } catch {
      // gone meanwhile
    }
  }
  return children;
}

/** The pid listening on a local TCP port (the benchmark's own OpenSearch), via `ss`. */
export function pidListeningOn(port: number): number | null {
  try {
    const out = execFileSync('ss', ['-ltnpH', `sport = :${port}`], { encoding: 'utf8' });
    const match = /pid=(\d+)/.exec(out);
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

export function pidsNamed(name: string): number[] {
  try {
    return execFileSync('pgrep', ['-x', name], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

/** A group of processes whose CPU is measured together (Postgres: the backends of one database). */
export class CpuMeter {
  private start = new Map<number, number>();

  constructor(private readonly pids: () => Promise<number[]> | number[]) {}

  async begin(): Promise<void> {
    this.start = new Map((await this.pids()).map((pid) => [pid, cpuMs(pid)]));
  }

  /** CPU ms since begin(), over the processes present at either end. */
  async end(): Promise<number> {
    const now = new Set([...(await this.pids()), ...this.start.keys()]);
    let total = 0;
    for (const pid of now) total += Math.max(0, cpuMs(pid) - (this.start.get(pid) ?? 0));
    return total;
  }
}

/**
 * Samples the resident memory of a group of processes (the API: its primary and its processes)
 * until stopped; returns the peak of their sum and the peak of the largest one, in MB.
 */
export function rssPeak(
  pids: () => number[],
  everyMs = 200,
): { stop: () => { total: number; largest: number } } {
  let total = 0;
  let largest = 0;
  const sample = () => {
    const each = pids().map(rssMb);
    total = Math.max(
      total,
      each.reduce((a, b) => a + b, 0),
    );
    largest = Math.max(largest, ...each);
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      sample();
      return { total, largest };
    },
  };
}
