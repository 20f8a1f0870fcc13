import { waitFor } from '../../scripts/faults/procs';
import { reportedDeliveries } from '../../scripts/faults/load';
import { StepTimeout, within } from '../../scripts/faults/run';

// `npm run faults` must never hang: a probe to a frozen server (a fetch that never
// settles) used to keep waitFor waiting forever, past its own deadline, and the run with it.

const never = () => new Promise<boolean>(() => undefined);

it('waitFor gives up at its deadline even when the check itself never settles', async () => {
  await expect(waitFor(never, 200, 'a frozen probe')).rejects.toThrow(
    'a frozen probe did not happen within 200 ms',
  );
});

it('waitFor returns once the check holds', async () => {
  let calls = 0;
  await expect(
    waitFor(async () => ++calls >= 2, 10_000, 'two calls'),
  ).resolves.toBeGreaterThanOrEqual(0);
  expect(calls).toBe(2);
});

it('within ends a step that never settles with a StepTimeout', async () => {
  await expect(within(100, 'a stuck step', never())).rejects.toBeInstanceOf(StepTimeout);
  await expect(within(10_000, 'a quick step', Promise.resolve(7))).resolves.toBe(7);
});

describe('reportedDeliveries: what the answers of an outage said they delivered', () => {
  const window = { countedFrom: 100, downFrom: 110, countedTo: 900, countedUntil: 910 };
  const answer = (at: number, ms: number, status: number, delivered: number) => ({
    at,
    ms,
    status,
    delivered,
    op: 'list',
    code: undefined,
  });

  it('counts surely what fell between the two counts, and at most what may have', () => {
    const samples = [
      answer(50, 40, 200, 5), // ended before the first count began: neither
      answer(90, 15, 200, 3), // in flight at the first count: at most
      answer(200, 10, 200, 7), // between the counts: both
      answer(300, 10, 503, 0), // a refusal that charged nothing
      answer(895, 10, 200, 2), // in flight at the second count: at most
      answer(950, 10, 200, 4), // after the second count: neither
    ];
    expect(reportedDeliveries(samples, window)).toEqual({ least: 7, most: 12, byRefusals: 0 });
  });

  it('a refused answer that reports a delivery is counted against the run', () => {
    const samples = [answer(300, 10, 503, 1), answer(400, 10, 200, 2)];
    expect(reportedDeliveries(samples, window)).toEqual({ least: 3, most: 3, byRefusals: 1 });
  });
});
