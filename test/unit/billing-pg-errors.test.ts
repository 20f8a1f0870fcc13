import { failClosed, isStoreUnavailable } from '../../src/billing/pg-errors';
import { ApiError } from '../../src/domain/errors';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('metering store failures (contract §16.6: fail closed)', () => {
  it.each([
    ['refused', withCode('ECONNREFUSED')],
    ['reset', withCode('ECONNRESET')],
    ['admin shutdown', withCode('57P01')],
    ['too many connections', withCode('53300')],
    ['statement timeout', withCode('57014')],
    ['lock timeout', withCode('55P03')],
    ['connection exception class', withCode('08006')],
    ['pool timeout', new Error('timeout exceeded when trying to connect')],
    ['terminated', new Error('Connection terminated unexpectedly')],
    ['all addresses refused', new AggregateError([withCode('ECONNREFUSED')], 'x')],
  ])('treats %s as unavailable', (_name, err) => {
    expect(isStoreUnavailable(err)).toBe(true);
  });

  it.each([
    ['syntax error', withCode('42601')],
    ['unique violation', withCode('23505')],
    ['bad uuid', withCode('22P02')],
    ['a plain bug', new TypeError('cannot read properties of undefined')],
    ['not an error', 'boom'],
  ])('treats %s as a bug, not an outage', (_name, err) => {
    expect(isStoreUnavailable(err)).toBe(false);
  });

  it('turns an outage into 503 metering_unavailable and lets other errors through', async () => {
    const outage = await failClosed(() => Promise.reject(withCode('ECONNREFUSED'))).catch(
      (e: unknown) => e,
    );
    expect(outage).toBeInstanceOf(ApiError);
    expect(outage).toMatchObject({ code: 'metering_unavailable', status: 503, retryAfter: 1 });
    const bug = withCode('42601');
    await expect(failClosed(() => Promise.reject(bug))).rejects.toBe(bug);
    const quota = new ApiError('insufficient_balance', 'no');
    await expect(failClosed(() => Promise.reject(quota))).rejects.toBe(quota);
  });
});
