import {
  addMonths,
  calendarMonth,
  currentPeriod,
  type PeriodSettings,
} from '../../src/billing/period';

const d = (iso: string) => new Date(iso);
const iso = (p: { start: Date; end: Date }) => [p.start.toISOString(), p.end.toISOString()];
const stored = (start: string | null, end: string | null, over: Partial<PeriodSettings> = {}) => ({
  billingModel: 'plan' as const,
  periodKind: 'billing_period' as const,
  storedStart: start === null ? null : d(start),
  storedEnd: end === null ? null : d(end),
  ...over,
});

describe('calendar months (contract §15.5: Free is the UTC calendar month)', () => {
  it.each([
    ['2025-03-15T12:00:00Z', '2025-03-01T00:00:00.000Z', '2025-04-01T00:00:00.000Z'],
    ['2025-12-31T23:59:59.999Z', '2025-12-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'],
    ['2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z'],
    ['2024-02-29T10:00:00Z', '2024-02-01T00:00:00.000Z', '2024-03-01T00:00:00.000Z'],
    ['2025-02-28T23:59:59.999Z', '2025-02-01T00:00:00.000Z', '2025-03-01T00:00:00.000Z'],
  ])('%s lies in [%s, %s)', (now, start, end) => {
    expect(iso(calendarMonth(d(now)))).toEqual([start, end]);
  });

  it('uses UTC, not the offset the instant was written with', () => {
    expect(iso(calendarMonth(d('2025-04-01T01:00:00+02:00')))).toEqual([
      '2025-03-01T00:00:00.000Z',
      '2025-04-01T00:00:00.000Z',
    ]);
  });

  it('ignores a stored period for a Free plan-billed account', () => {
    const s = stored('2025-01-10T00:00:00Z', '2025-02-10T00:00:00Z', {
      periodKind: 'calendar_month',
    });
    expect(iso(currentPeriod(s, d('2025-01-20T00:00:00Z')))[0]).toBe('2025-01-01T00:00:00.000Z');
  });
});

describe('stored billing periods (paid plans and legacy models)', () => {
  it('uses the stored period while it contains now; its end is exclusive', () => {
    const s = stored('2025-01-10T08:00:00Z', '2025-02-10T08:00:00Z');
    expect(iso(currentPeriod(s, d('2025-02-10T07:59:59.999Z')))).toEqual([
      '2025-01-10T08:00:00.000Z',
      '2025-02-10T08:00:00.000Z',
    ]);
    expect(iso(currentPeriod(s, d('2025-02-10T08:00:00Z')))).toEqual([
      '2025-02-10T08:00:00.000Z',
      '2025-03-10T08:00:00.000Z',
    ]);
  });

  it('falls back to the calendar month when nothing is stored', () => {
    expect(iso(currentPeriod(stored(null, null), d('2025-07-04T00:00:00Z')))).toEqual([
      '2025-07-01T00:00:00.000Z',
      '2025-08-01T00:00:00.000Z',
    ]);
  });

  it('applies to legacy models whatever their plan', () => {
    const s = stored('2025-01-10T00:00:00Z', '2025-02-10T00:00:00Z', {
      billingModel: 'legacy_entitlement',
      periodKind: 'calendar_month',
    });
    expect(iso(currentPeriod(s, d('2025-01-20T00:00:00Z')))[0]).toBe('2025-01-10T00:00:00.000Z');
  });

  it('rolls a monthly period forward from its anchor day without drift (leap year)', () => {
    const s = stored('2024-01-31T00:00:00Z', '2024-02-29T00:00:00Z');
    expect(iso(currentPeriod(s, d('2024-03-15T00:00:00Z')))).toEqual([
      '2024-02-29T00:00:00.000Z',
      '2024-03-31T00:00:00.000Z',
    ]);
    expect(iso(currentPeriod(s, d('2024-04-30T12:00:00Z')))).toEqual([
      '2024-04-30T00:00:00.000Z',
      '2024-05-31T00:00:00.000Z',
    ]);
    expect(iso(currentPeriod(s, d('2025-02-27T12:00:00Z')))).toEqual([
      '2025-01-31T00:00:00.000Z',
      '2025-02-28T00:00:00.000Z',
    ]);
    expect(iso(currentPeriod(s, d('2025-02-28T12:00:00Z')))).toEqual([
      '2025-02-28T00:00:00.000Z',
      '2025-03-31T00:00:00.000Z',
    ]);
  });

  it('rolls across December into January', () => {
    const s = stored('2024-11-15T00:00:00Z', '2024-12-15T00:00:00Z');
    expect(iso(currentPeriod(s, d('2025-01-02T00:00:00Z')))).toEqual([
      '2024-12-15T00:00:00.000Z',
      '2025-01-15T00:00:00.000Z',
    ]);
  });

  it('repeats a yearly period every twelve months', () => {
    const s = stored('2023-03-01T00:00:00Z', '2024-03-01T00:00:00Z');
    expect(iso(currentPeriod(s, d('2025-06-01T00:00:00Z')))).toEqual([
      '2025-03-01T00:00:00.000Z',
      '2026-03-01T00:00:00.000Z',
    ]);
  });

  it('follows an irregular period with months anchored on its end, and precedes it likewise', () => {
    const s = stored('2025-01-15T00:00:00Z', '2025-02-10T00:00:00Z');
    expect(iso(currentPeriod(s, d('2025-02-12T00:00:00Z')))).toEqual([
      '2025-02-10T00:00:00.000Z',
      '2025-03-10T00:00:00.000Z',
    ]);
    expect(iso(currentPeriod(s, d('2025-01-01T00:00:00Z')))).toEqual([
      '2024-12-15T00:00:00.000Z',
      '2025-01-15T00:00:00.000Z',
    ]);
  });

  it('always returns a period that contains now', () => {
    const s = stored('2024-01-31T13:45:00Z', '2024-02-29T13:45:00Z');
    for (
      let t = Date.parse('2023-01-01T00:00:00Z');
      t < Date.parse('2027-01-01');
      t += 86_399_000
    ) {
      const p = currentPeriod(s, new Date(t));
      expect(p.start.getTime()).toBeLessThanOrEqual(t);
      expect(p.end.getTime()).toBeGreaterThan(t);
    }
  });
});

describe('addMonths', () => {
  it('clamps to the month end and keeps the time of day', () => {
    expect(addMonths(d('2023-01-31T10:20:30.400Z'), 1).toISOString()).toBe(
      '2023-02-28T10:20:30.400Z',
    );
    expect(addMonths(d('2024-01-31T00:00:00Z'), 1).toISOString()).toBe('2024-02-29T00:00:00.000Z');
    expect(addMonths(d('2024-12-31T00:00:00Z'), 2).toISOString()).toBe('2025-02-28T00:00:00.000Z');
    expect(addMonths(d('2024-03-31T00:00:00Z'), -1).toISOString()).toBe('2024-02-29T00:00:00.000Z');
  });

  // Date.UTC maps years 0-99 to 1900-1999: a period stored in 0050 stepped into 1950.
  it('steps in the years 0001-0099 as in any other', () => {
    expect(addMonths(d('0050-01-31T10:00:00Z'), 1).toISOString()).toBe('0050-02-28T10:00:00.000Z');
    expect(addMonths(d('0099-12-15T00:00:00Z'), 1).toISOString()).toBe('0100-01-15T00:00:00.000Z');
  });
});
