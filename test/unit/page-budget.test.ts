import { cutPage } from '../../src/billing/page-budget';

// contract §11: where max_new and unseen_only cut a page, decided under the account lock.

const page = ['a', 'b', 'c', 'd', 'e'];
const fresh = new Set(['b', 'c', 'e']);

describe('cutPage', () => {
  it('serves everything without rules', () => {
    expect(cutPage(page, fresh)).toEqual({ consumed: 5, served: page, newIds: ['b', 'c', 'e'] });
  });

  it('stops before the (N+1)-th new record, keeping the repeats before it', () => {
    expect(cutPage(page, fresh, { maxNew: 2 })).toEqual({
      consumed: 4,
      served: ['a', 'b', 'c', 'd'],
      newIds: ['b', 'c'],
    });
    expect(cutPage(page, fresh, { maxNew: 1 })).toEqual({
      consumed: 2,
      served: ['a', 'b'],
      newIds: ['b'],
    });
  });

  it('max_new=0 serves the leading repeats only', () => {
    expect(cutPage(page, fresh, { maxNew: 0 })).toEqual({
      consumed: 1,
      served: ['a'],
      newIds: [],
    });
    expect(cutPage(['b', 'a'], fresh, { maxNew: 0 })).toEqual({
      consumed: 0,
      served: [],
      newIds: [],
    });
  });

  it('a budget the page does not reach cuts nothing', () => {
    expect(cutPage(page, fresh, { maxNew: 3 }).consumed).toBe(5);
    expect(cutPage(page, fresh, { maxNew: 100 }).consumed).toBe(5);
  });

  it('unseen_only leaves repeats out but reads past them', () => {
    expect(cutPage(page, fresh, { newOnly: true })).toEqual({
      consumed: 5,
      served: ['b', 'c', 'e'],
      newIds: ['b', 'c', 'e'],
    });
    expect(cutPage(page, fresh, { newOnly: true, maxNew: 1 })).toEqual({
      consumed: 2,
      served: ['b'],
      newIds: ['b'],
    });
  });

  it('an id twice in one page is new once', () => {
    expect(cutPage(['b', 'b', 'a'], fresh, { maxNew: 1 })).toEqual({
      consumed: 3,
      served: ['b', 'b', 'a'],
      newIds: ['b'],
    });
  });
});
