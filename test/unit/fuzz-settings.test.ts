import { fuzzSettings } from '../support/fuzz/settings';

// The property suites' runs, seed and time bound (test/support/fuzz/settings.ts): `npm test`'s
// fixed ones, or what FUZZ_RUNS and FUZZ_SEED say for `npm run fuzz`.

const saved = { runs: process.env.FUZZ_RUNS, seed: process.env.FUZZ_SEED };
afterEach(() => {
  for (const [name, value] of [
    ['FUZZ_RUNS', saved.runs],
    ['FUZZ_SEED', saved.seed],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

const defaults = { runs: 8, seed: 20261130, msPerRun: 4_000 };

it('keeps the fixed runs and seed, with two minutes plus the runs’ share as the bound', () => {
  delete process.env.FUZZ_RUNS;
  delete process.env.FUZZ_SEED;
  expect(fuzzSettings(defaults)).toEqual({ runs: 8, seed: 20261130, timeout: 152_000 });
});

it('bounds the time by the runs the environment asks for', () => {
  process.env.FUZZ_RUNS = '150';
  process.env.FUZZ_SEED = '7';
  expect(fuzzSettings(defaults)).toEqual({ runs: 150, seed: 7, timeout: 720_000 });
});

it('draws a seed for FUZZ_SEED=random', () => {
  process.env.FUZZ_SEED = 'random';
  const { seed } = fuzzSettings(defaults);
  expect(Number.isInteger(seed) && seed >= 0 && seed < 2 ** 31).toBe(true);
});

it('stops at a value that is not a whole number rather than running nothing', () => {
  process.env.FUZZ_RUNS = 'abc';
  expect(() => fuzzSettings(defaults)).toThrow('FUZZ_RUNS must be a whole number, got abc');
  process.env.FUZZ_RUNS = '3';
  process.env.FUZZ_SEED = '-1';
  expect(() => fuzzSettings(defaults)).toThrow('FUZZ_SEED must be a whole number');
});
