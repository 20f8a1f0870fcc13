import { formatSeconds, humanLine, ProgressReporter } from '../../src/cli/progress-reporter';

// Progress lines with records done, rate and ETA; JSON lines with --json.

function reporter(json: boolean) {
  let now = 0;
  const lines: string[] = [];
  const r = new ProgressReporter({
    command: 'seed',
    json,
    write: (l) => lines.push(l),
    now: () => now,
  });
  return { r, lines, advanceClock: (ms: number) => (now += ms) };
}

it('reports done, total, rate and ETA as JSON lines', () => {
  const { r, lines, advanceClock } = reporter(true);
  r.phase('store', 1000);
  advanceClock(2000);
  r.advance(400);
  r.report();
  expect(JSON.parse(lines[1] ?? '{}')).toEqual({
    event: 'progress',
    command: 'seed',
    phase: 'store',
    done: 400,
    total: 1000,
    records_per_second: 200,
    eta_seconds: 3,
    elapsed_seconds: 2,
  });
});

it('a new phase restarts the count and the rate; an unknown total has no ETA', () => {
  const { r, lines, advanceClock } = reporter(true);
  r.phase('store', 10);
  advanceClock(1000);
  r.advance(10);
  r.phase('index', null);
  advanceClock(1000);
  r.advance(5);
  r.report();
  const parsed = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  // The finished phase is reported once more when the next starts.
  expect(parsed.map((p) => [p.phase, p.done])).toEqual([
    ['store', 0],
    ['store', 10],
    ['index', 0],
    ['index', 5],
  ]);
  expect(parsed[3]).toMatchObject({ total: null, eta_seconds: null, records_per_second: 5 });
});

it('prints a readable line on a terminal', () => {
  expect(
    humanLine({
      event: 'progress',
      command: 'seed',
      phase: 'index',
      done: 150000,
      total: 300000,
      records_per_second: 2500,
      eta_seconds: 60,
      elapsed_seconds: 125,
    }),
  ).toBe('seed index: 150,000 / 300,000 (50.0%), 2,500 records/s, ETA 1m00s, elapsed 2m05s');
  expect(formatSeconds(3725)).toBe('1h02m');
  expect(formatSeconds(9)).toBe('9s');
});

it('writes periodically once started, and stops', () => {
  // The interval timer is the subject: fake timers drive it, nothing waits on the wall clock.
  jest.useFakeTimers();
  try {
    const lines: string[] = [];
    const r = new ProgressReporter({
      command: 'sync',
      json: true,
      write: (l) => lines.push(l),
      intervalMs: 5,
    }).start();
    jest.advanceTimersByTime(4);
    expect(lines).toHaveLength(0);
    jest.advanceTimersByTime(1);
    expect(lines).toHaveLength(1);
    jest.advanceTimersByTime(35);
    expect(lines).toHaveLength(8);
    r.stop();
    const seen = lines.length;
    expect(seen).toBeGreaterThanOrEqual(1);
    jest.advanceTimersByTime(20);
    expect(lines.length).toBe(seen);
    expect(jest.getTimerCount()).toBe(0);
  } finally {
    jest.useRealTimers();
  }
});
