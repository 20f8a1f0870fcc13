import type { BillingModel, PeriodKind } from './plans';
import { utcMs } from '../domain/utc-times';

// Billing periods (contract §15.5). Every period is [start, end): end is exclusive and is
// what X-Service-Period-End shows. Pure: the clock is an argument.

export interface Period {
  start: Date;
  end: Date;
}

export interface PeriodSettings {
  billingModel: BillingModel;
  /** The plan's period kind: 'calendar_month' for Free, 'billing_period' for paid plans. */
  periodKind: PeriodKind;
  storedStart: Date | null;
  storedEnd: Date | null;
}

/** The UTC calendar month containing `now`. */
export function calendarMonth(now: Date): Period {
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  return { start: new Date(utcMs(y, m, 1)), end: new Date(utcMs(y, m + 1, 1)) };
}

/**
 * The period containing `now`.
 * - A plan-billed account on a calendar-month plan (Free): the UTC calendar month.
 * - Paid plans and both legacy models: the account's stored billing period.
 * - Nothing stored (an account not yet synced with the payment provider): the UTC calendar month,
 *   so usage is still bounded and visible rather than never resetting.
 * - `now` outside the stored period (the provider's renewal has not been written back yet): the
 *   stored period recurs. When it spans a whole number of months (the usual monthly or yearly
 *   subscription) it repeats every that many months from the stored start, keeping the anchor day
 *   (Jan 31 → Feb 29 → Mar 31, no drift); an irregular stored period is followed (and preceded)
 *   by monthly periods anchored on its end (and start), so no instant is left uncovered or covered
 *   twice. The stored columns are not rewritten: the period is a function of them and the clock.
 */
export function currentPeriod(settings: PeriodSettings, now: Date): Period {
  const { storedStart, storedEnd } = settings;
  const calendar = settings.billingModel === 'plan' && settings.periodKind === 'calendar_month';
  if (calendar || storedStart === null || storedEnd === null) return calendarMonth(now);
  if (storedStart <= now && now < storedEnd) return { start: storedStart, end: storedEnd };
  const months = wholeMonthsBetween(storedStart, storedEnd);
  if (months !== null) return recurring(storedStart, months, now);
  return now < storedStart ? recurring(storedStart, 1, now) : recurring(storedEnd, 1, now);
}

/** What an account's period depends on (billing/snapshot.ts AccountBilling has it all). */
export interface PeriodSource {
  settings: { billingModel: BillingModel };
  plan: { periodKind: PeriodKind };
  storedPeriodStart: Date | null;
  storedPeriodEnd: Date | null;
}

/** The account's current period, from its billing columns. */
export function periodOf(account: PeriodSource, now: Date): Period {
  return currentPeriod(
    {
      billingModel: account.settings.billingModel,
      periodKind: account.plan.periodKind,
      storedStart: account.storedPeriodStart,
      storedEnd: account.storedPeriodEnd,
    },
    now,
  );
}

/**
 * `anchor` plus `months` calendar months, same time of day; a day that the target month lacks is
 * clamped to its last day (Jan 31 + 1 month = Feb 28, or Feb 29 in a leap year).
 */
export function addMonths(anchor: Date, months: number): Date {
  const y = anchor.getUTCFullYear();
  const m = anchor.getUTCMonth() + months;
  const lastDay = new Date(utcMs(y, m + 1, 0)).getUTCDate();
  const day = Math.min(anchor.getUTCDate(), lastDay);
  return new Date(
    utcMs(
      y,
      m,
      day,
      anchor.getUTCHours(),
      anchor.getUTCMinutes(),
      anchor.getUTCSeconds(),
      anchor.getUTCMilliseconds(),
    ),
  );
}

/** n ≥ 1 when end = start + n months exactly, else null. */
function wholeMonthsBetween(start: Date, end: Date): number | null {
  const approx =
    (end.getUTCFullYear() - start.getUTCFullYear()) * 12 + end.getUTCMonth() - start.getUTCMonth();
  for (const n of [approx - 1, approx, approx + 1]) {
    if (n >= 1 && addMonths(start, n).getTime() === end.getTime()) return n;
  }
  return null;
}

/** The period [anchor + k·step, anchor + (k+1)·step) months that contains `now`, k any integer. */
function recurring(anchor: Date, stepMonths: number, now: Date): Period {
  const monthsAway =
    (now.getUTCFullYear() - anchor.getUTCFullYear()) * 12 +
    now.getUTCMonth() -
    anchor.getUTCMonth();
  let k = Math.floor(monthsAway / stepMonths);
  // The month arithmetic ignores days, so the estimate is off by at most one step either way.
  while (addMonths(anchor, k * stepMonths) > now) k--;
  while (addMonths(anchor, (k + 1) * stepMonths) <= now) k++;
  return { start: addMonths(anchor, k * stepMonths), end: addMonths(anchor, (k + 1) * stepMonths) };
}
