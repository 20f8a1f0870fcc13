import type { Progress } from '../infra/progress';

// Seed, sync, reindex and import report progress on stderr at least every two
// seconds (records done, rate, ETA): human lines on a terminal, JSON lines with --json. stdout is
// left alone: it carries exactly one JSON object at the end.

export interface ProgressLine {
  event: 'progress';
  command: string;
  phase: string;
  done: number;
  total: number | null;
  records_per_second: number;
  eta_seconds: number | null;
  elapsed_seconds: number;
}

export interface ReporterOptions {
  command: string;
  /** JSON lines (--json) or human text. */
  json: boolean;
  /** Where lines go (stderr). */
  write: (line: string) => void;
  intervalMs?: number;
  now?: () => number;
}

export class ProgressReporter implements Progress {
  private name = 'start';
  private total: number | null = null;
  private done = 0;
  private phaseStarted: number;
  private readonly started: number;
  private timer: NodeJS.Timeout | undefined;
  private readonly now: () => number;

  constructor(private readonly options: ReporterOptions) {
    this.now = options.now ?? (() => performance.now());
    this.started = this.phaseStarted = this.now();
  }

  /** Starts the periodic lines; the timer never keeps the process alive. */
  start(): this {
    this.timer = setInterval(() => this.report(), this.options.intervalMs ?? 2000);
    this.timer.unref();
    return this;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  phase(name: string, total: number | null): void {
    if (this.done > 0) this.report();
    this.name = name;
    this.total = total;
    this.done = 0;
    this.phaseStarted = this.now();
    this.report();
  }

  advance(n: number): void {
    this.done += n;
  }

  snapshot(): ProgressLine {
    const now = this.now();
    const seconds = (now - this.phaseStarted) / 1000;
    const rate = seconds > 0 ? this.done / seconds : 0;
    const left = this.total === null ? null : Math.max(0, this.total - this.done);
    return {
      event: 'progress',
      command: this.options.command,
      phase: this.name,
      done: this.done,
      total: this.total,
      records_per_second: Math.round(rate),
      eta_seconds: left === null || rate <= 0 ? null : Math.round(left / rate),
      elapsed_seconds: Math.round((now - this.started) / 100) / 10,
    };
  }

  report(): void {
    const s = this.snapshot();
    this.options.write(this.options.json ? JSON.stringify(s) : humanLine(s));
  }
}

export function humanLine(s: ProgressLine): string {
  const done = s.done.toLocaleString('en-US');
  const of = s.total === null ? '' : ` / ${s.total.toLocaleString('en-US')}`;
  const pct = s.total ? ` (${((100 * s.done) / s.total).toFixed(1)}%)` : '';
  const eta = s.eta_seconds === null ? '' : `, ETA ${formatSeconds(s.eta_seconds)}`;
  return (
    `${s.command} ${s.phase}: ${done}${of}${pct}, ` +
    `${s.records_per_second.toLocaleString('en-US')} records/s${eta}, ` +
    `elapsed ${formatSeconds(s.elapsed_seconds)}`
  );
}

export function formatSeconds(total: number): string {
  const t = Math.round(total);
  const h = Math.floor(t / 3600);
  const m = Math.floor((t % 3600) / 60);
  const sec = t % 60;
  return h
    ? `${h}h${String(m).padStart(2, '0')}m`
    : m
      ? `${m}m${String(sec).padStart(2, '0')}s`
      : `${sec}s`;
}
