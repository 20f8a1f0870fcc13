import { once } from '../../src/infra/once';

it('builds nothing until asked, then once, and hands back the same value', () => {
  const build = jest.fn(() => ({ built: true }));
  const value = once(build);
  expect(build).not.toHaveBeenCalled();
  const first = value();
  expect(value()).toBe(first);
  expect(build).toHaveBeenCalledTimes(1);
});

it('keeps a falsy value as built', () => {
  const build = jest.fn(() => 0);
  const value = once(build);
  expect([value(), value()]).toEqual([0, 0]);
  expect(build).toHaveBeenCalledTimes(1);
});
