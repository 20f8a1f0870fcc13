import { Limiter } from '../../src/infra/limiter';

// The in-process limiter (no Redis, or Redis failing) refunds as the Redis one does: into a window
// that is still open, never into the next (rate-limiter-flexible's reward would open it at -1,
// and the key would be served above its limit). The window's second is the fake clock's.

beforeEach(() => jest.useFakeTimers({ now: new Date('2026-11-30T00:00:00Z') }));
afterEach(() => jest.useRealTimers());

it('gives a point back while the window is open', async () => {
  const limiter = new Limiter(null, { keyPrefix: 'rl:t', durationSeconds: 1 });
  let last = await limiter.consume('k', 3);
  for (let i = 0; i < 2; i++) last = await limiter.consume('k', 3);
  expect(last.allowed).toBe(true);
  await limiter.refund('k', 3, last.windowEndsAt);
  expect((await limiter.consume('k', 3)).allowed).toBe(true);
  expect((await limiter.consume('k', 3)).allowed).toBe(false);
});

it('gives nothing back once the window has ended, and the next window holds its limit', async () => {
  const limiter = new Limiter(null, { keyPrefix: 'rl:t', durationSeconds: 1 });
  const taken = await limiter.consume('k', 3);
  expect(taken.allowed).toBe(true);
  jest.advanceTimersByTime(1_100);
  await limiter.refund('k', 3, taken.windowEndsAt);
  await limiter.refund('k', 3, taken.windowEndsAt);
  const served = [];
  for (let i = 0; i < 4; i++) served.push((await limiter.consume('k', 3)).allowed);
  expect(served).toEqual([true, true, true, false]);
});

// A window opened since (another request, just after the old one ended) is not the one the point
// was taken from: it keeps its count.
it('gives nothing back into a window opened after the one the point was taken from', async () => {
  const limiter = new Limiter(null, { keyPrefix: 'rl:t', durationSeconds: 1 });
  const taken = await limiter.consume('k', 3);
  jest.advanceTimersByTime(1_100);
  expect((await limiter.consume('k', 3)).remaining).toBe(2);
  await limiter.refund('k', 3, taken.windowEndsAt);
  expect((await limiter.consume('k', 3)).remaining).toBe(1);
});
