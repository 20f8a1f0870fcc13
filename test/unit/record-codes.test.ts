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

// contract §2.7.4: numbers past 2^53 were stored and served as other numbers, with nothing said.
describe('record numbers', () => {
  const record = makeRecord();
  const withRate = (max: number) => ({
    ...record,
    rate: { min: 80.5, max, currency: 'USD', unit: 'hour' },
  });
  const withMonths = (months_max: number) => ({
    ...record,
    duration: { months_min: null, months_max, text: null },
  });
  const withEvidence = (value: number) => ({
    ...record,
    evidence: [{ field: 'rate', value, strength: 'explicit', excerpt: 'x', source: null }],
  });
  const parsed = JSON.parse;

  it.each([
    ['rate.max', withRate],
    ['duration.months_max', withMonths],
    ['evidence[].value', withEvidence],
  ] as const)('%s takes 2^53 - 1 and refuses 2^53 + 1 or 1e21', (_label, make) => {
    expect(Opportunity.safeParse(make(Number.MAX_SAFE_INTEGER)).success).toBe(true);
    for (const text of ['9007199254740993', '12345678901234567890', '1e21']) {
      const result = Opportunity.safeParse(make(parsed(text) as number));
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toMatch(/not stored exactly/);
    }
  });

  it('a negative evidence number is bounded too', () => {
    expect(Opportunity.safeParse(withEvidence(-Number.MAX_SAFE_INTEGER)).success).toBe(true);
    expect(Opportunity.safeParse(withEvidence(-1e21)).success).toBe(false);
  });
});
