// How many runs a property makes and from which seed: FUZZ_RUNS and FUZZ_SEED (FUZZ_SEED=random
// picks one), read alike by every property test so that `npm run fuzz` drives them all.

/** A whole number from the environment, or the run stops: `FUZZ_RUNS=abc` ran nothing and passed. */
function wholeNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new Error(`${name} must be a whole number, got ${raw}`);
  return Number(raw);
}

/**
 * The runs and seed of this test run, `npm test`'s fixed ones unless the environment says, and the
 * property's time bound: two minutes for a loaded machine, plus `msPerRun` for each run (a long
 * `npm run fuzz` needs more than `npm test`'s few runs).
 */
export function fuzzSettings(defaults: { runs: number; seed: number; msPerRun: number }): {
  runs: number;
  seed: number;
  timeout: number;
} {
  const runs = wholeNumber('FUZZ_RUNS', defaults.runs);
  return {
    runs,
    seed:
      process.env.FUZZ_SEED === 'random'
        ? Math.floor(Math.random() * 2 ** 31)
        : wholeNumber('FUZZ_SEED', defaults.seed),
    timeout: 120_000 + runs * defaults.msPerRun,
  };
}
