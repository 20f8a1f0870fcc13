import { waitFor } from '../../scripts/faults/procs';
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
