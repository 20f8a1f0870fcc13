import { KnownDelivered } from '../../src/billing/known-delivered';

// billing/known-delivered.ts: the ids a process saw delivered, by account and period, bounded. A
// page is "all known" only when every id was seen delivered to that account in that period.

const MAY = new Date(Date.UTC(2026, 4, 1));
const JUNE = new Date(Date.UTC(2026, 5, 1));

it('knows a page only when every id was seen delivered to that account in that period', () => {
  const known = new KnownDelivered(10);
  known.add('acc-a', MAY, ['x', 'y']);
  expect(known.all('acc-a', MAY, ['x', 'y', 'x'])).toBe(true);
  expect(known.all('acc-a', MAY, ['x', 'z'])).toBe(false);
  // Another account, another period: not known.
  expect(known.all('acc-b', MAY, ['x'])).toBe(false);
  expect(known.all('acc-a', JUNE, ['x'])).toBe(false);
  // A new period starts the account's set again (the old period has ended).
  known.add('acc-a', JUNE, ['x']);
  expect(known.all('acc-a', JUNE, ['x'])).toBe(true);
  expect(known.all('acc-a', JUNE, ['y'])).toBe(false);
  expect(known.size).toBe(1);
});

it('holds at most its bounds: per account, then the least recently used accounts go', () => {
  const known = new KnownDelivered(5, 3);
  known.add('acc-a', MAY, ['a1', 'a2', 'a3']);
  // Past the account's bound its set starts again.
  known.add('acc-a', MAY, ['a4']);
  expect(known.all('acc-a', MAY, ['a4'])).toBe(true);
  expect(known.all('acc-a', MAY, ['a1'])).toBe(false);
  expect(known.size).toBe(1);

  known.add('acc-b', MAY, ['b1', 'b2']);
  known.add('acc-c', MAY, ['c1', 'c2']);
  expect(known.size).toBe(5);
  expect(known.all('acc-a', MAY, ['a4'])).toBe(true); // a is now the most recently used
  known.add('acc-d', MAY, ['d1']);
  // Over the total: b, the least recently used, went.
  expect(known.all('acc-b', MAY, ['b1'])).toBe(false);
  expect(known.all('acc-a', MAY, ['a4'])).toBe(true);
  expect(known.all('acc-c', MAY, ['c1', 'c2'])).toBe(true);
  expect(known.all('acc-d', MAY, ['d1'])).toBe(true);
  expect(known.size).toBe(4);
});
