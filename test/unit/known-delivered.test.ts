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
  // Seen again in the next period: known there (and no longer in the old one, which has ended).
  known.add('acc-a', JUNE, ['x']);
  expect(known.all('acc-a', JUNE, ['x'])).toBe(true);
});

it('holds at most its bound, the least recently used going first', () => {
  const known = new KnownDelivered(3);
  known.add('acc', MAY, ['a', 'b', 'c']);
  expect(known.all('acc', MAY, ['a'])).toBe(true); // a is now the most recently used
  known.add('acc', MAY, ['d']);
  expect(known.all('acc', MAY, ['b'])).toBe(false);
  expect(known.all('acc', MAY, ['a', 'c', 'd'])).toBe(true);
});
