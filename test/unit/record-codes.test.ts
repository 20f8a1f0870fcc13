import { Opportunity } from '../../src/domain/record';
import { makeRecord } from '../support/fixtures';

// contract §2.4: a stored record's codes are assigned ones, so every rate and location can be
// asked for by a filter and counted in a facet bucket that means something.

const withCurrency = (currency: string) => {
  const record = makeRecord();
  return { ...record, rate: { min: 80, max: 100, currency, unit: 'hour' } };
};

describe('record codes', () => {
  it.each(['USD', 'EUR', 'GBP', 'INR', 'XAU', 'XXX', 'HRK'])('currency %s is accepted', (code) => {
    expect(Opportunity.safeParse(withCurrency(code)).success).toBe(true);
  });

  it.each(['XYZ', 'ABC', 'usd', 'US', 'USDD'])('currency %s is refused', (code) => {
    const parsed = Opportunity.safeParse(withCurrency(code));
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual(['rate', 'currency']);
  });

  it('country must be an assigned alpha-2 code', () => {
    const record = makeRecord();
    const withCountry = (country: string) => ({
      ...record,
      location: { ...record.location, country },
    });
    expect(Opportunity.safeParse(withCountry('DE')).success).toBe(true);
    expect(Opportunity.safeParse(withCountry('ZQ')).success).toBe(false);
  });
});

describe('record date-times', () => {
  it.each([
    ['0000-06-01T00:00:00Z', false],
    ['0000-01-01T00:30:00+01:00', false],
    ['9999-12-31T23:30:00-01:00', false],
    ['0001-01-01T00:00:00Z', true],
    ['9999-12-31T23:59:59.999Z', true],
    ['2026-10-01T12:00:00+02:00', true],
  ])('changed_at %s accepted: %s', (changedAt, ok) => {
    expect(Opportunity.safeParse(makeRecord({ changed_at: changedAt })).success).toBe(ok);
  });
});
