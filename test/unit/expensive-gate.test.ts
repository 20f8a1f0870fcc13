import { ExpensiveGate, isFreeButExpensive } from '../../src/service/expensive-gate';
import { InFlightSlots } from '../../src/infra/in-flight-slots';
import { ApiError } from '../../src/domain/errors';
import type { ParsedRequest } from '../../src/domain/filters';

// contract §19.8: the one predicate of free-but-expensive requests, and the per-account slots.

const request = (
  filter: ParsedRequest['filter'] = {},
  options: Partial<ParsedRequest['options']> = {},
): ParsedRequest => ({
  filter,
  limit: 0,
  appliedFilters: filter,
  options: { groupLimit: 10, includeNewCount: false, ...options },
});
const window = { limit: 10, remaining: 9, resetSeconds: 1 };

it.each([
  [request({ unseen_only: true }), true],
  [request({}, { includeNewCount: true }), true],
  [request({}, { groupBy: ['level'] }), true],
  [request({}, { histogram: 'published', interval: 'week' }), true],
  [request({}, { stats: 'rate' }), true],
  [request({ unseen_only: false }), false],
  [request({ level: ['senior'] }, { maxNew: 3 }), false],
])('isFreeButExpensive(%j) is %s', (r, expensive) => {
  expect(isFreeButExpensive(r)).toBe(expensive);
});

it('holds two slots per account, refuses a third with 429 and Retry-After 1, frees on settle', async () => {
  // Without Redis the slots are the process's own (across processes: in-flight-slots.test.ts).
  const slots = new InFlightSlots(null, { keyPrefix: 'test', leaseMs: 60_000 });
  const gate = new ExpensiveGate(2, { expensiveSlot: (id, limit) => slots.acquire(id, limit) });
  const expensive = request({ unseen_only: true });
  let open!: () => void;
  const blocker = new Promise<void>((resolve) => (open = resolve));
  const held = [
    gate.run('a', expensive, window, () => blocker),
    gate.run('a', expensive, window, () => blocker),
  ];
  const refused = await gate
    .run('a', expensive, window, async () => 'ran')
    .catch((e: unknown) => e);
  expect(refused).toBeInstanceOf(ApiError);
  expect(refused).toMatchObject({ code: 'rate_limit_exceeded', status: 429, retryAfter: 1 });
  // Cheap requests and other accounts pass.
  await expect(gate.run('a', request(), window, async () => 'cheap')).resolves.toBe('cheap');
  await expect(gate.run('b', expensive, window, async () => 'other')).resolves.toBe('other');
  open();
  await Promise.all(held);
  expect(slots.heldLocally('a')).toBe(0);
  // A failed call frees its slot too.
  await expect(
    gate.run('a', expensive, window, () => Promise.reject(new Error('boom'))),
  ).rejects.toThrow('boom');
  expect(slots.heldLocally('a')).toBe(0);
});
