import { createHmac } from 'node:crypto';
import { verifyMarketplaceSignature } from '../../src/billing/marketplace';

const secret = 'proxy-secret';
const now = 1_750_000_000;
const sign = (t: number, requestId: string, key = secret) =>
  createHmac('sha256', key).update(`${t}.${requestId}`).digest('hex');

describe('marketplace proxy signature (contract §18.5)', () => {
  it('accepts t=UNIX,v1=HEX of t + "." + request id within 300 s', () => {
    expect(verifyMarketplaceSignature(`t=${now},v1=${sign(now, 'r1')}`, 'r1', secret, now)).toBe(
      true,
    );
    const t = now - 300;
    expect(verifyMarketplaceSignature(`t=${t},v1=${sign(t, 'r1')}`, 'r1', secret, now)).toBe(true);
    const later = now + 300;
    expect(
      verifyMarketplaceSignature(`v1=${sign(later, 'r1')}, t=${later}`, 'r1', secret, now),
    ).toBe(true);
  });

  it.each([
    ['too old', `t=${now - 301},v1=${sign(now - 301, 'r1')}`, 'r1'],
    ['too far ahead', `t=${now + 301},v1=${sign(now + 301, 'r1')}`, 'r1'],
    ['another request id', `t=${now},v1=${sign(now, 'r2')}`, 'r1'],
    ['another secret', `t=${now},v1=${sign(now, 'r1', 'other')}`, 'r1'],
    ['a short signature', `t=${now},v1=${sign(now, 'r1').slice(0, 40)}`, 'r1'],
    ['no timestamp', `v1=${sign(now, 'r1')}`, 'r1'],
    ['two timestamps', `t=${now},t=${now},v1=${sign(now, 'r1')}`, 'r1'],
    ['garbage', 'hello', 'r1'],
    ['empty', '', 'r1'],
  ])('rejects %s', (_name, header, requestId) => {
    expect(verifyMarketplaceSignature(header, requestId, secret, now)).toBe(false);
  });

  it('verifies nothing without a configured secret or a header', () => {
    expect(verifyMarketplaceSignature(`t=${now},v1=${sign(now, 'r1')}`, 'r1', undefined, now)).toBe(
      false,
    );
    expect(verifyMarketplaceSignature(undefined, 'r1', secret, now)).toBe(false);
  });
});
