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
