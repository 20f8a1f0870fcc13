import type { DeliveryOutcome } from './metering';
import type { ResponseHeader, ResponseHeaderValues } from '../domain/response-headers';
import type { UsageSnapshot } from './snapshot';

// The usage headers of contract §18, as a plain name → value map that the HTTP adapter sets and the
// tool adapter can copy. X-RateLimit-* come from rate-limit.ts; X-Request-ID and Retry-After are
// set where the request id and the error are handled.

/**
 * Every usage header of contract §18 (§18.3, §18.4). After a delivery pass its outcome: its
 * own usage (read in the delivery's transaction) is shown then, so the charge, the balance and the
 * counts always come from one ledger state. Without one (counts, errors after authentication) the
 * response delivered nothing: every per-response count and the charge are 0.
 */
export function usageHeaders(
  snapshot: UsageSnapshot,
  outcome: DeliveryOutcome | null,
  opts: { marketplaceVerified: boolean },
): Record<string, string> {
  const usage = outcome?.usage ?? snapshot;
  const newCount = outcome?.newCount ?? 0;
  const headers: Record<string, string> = {
    'X-Service-Balance-Millicents': String(usage.balanceMillicents),
    'X-Service-Usage-Charge-Millicents': String(outcome?.chargeMillicents ?? 0),
    'X-Service-Prepaid-Opportunity-Credits': String(usage.prepaidCredits),
    'X-Service-Opportunity-Limit': String(usage.allowance),
    'X-Service-Opportunity-Used': String(usage.used),
    'X-Service-Opportunity-Remaining': String(usage.remaining),
    'X-Service-New-Opportunity-Count': String(newCount),
    'X-Service-Included-New-Opportunity-Count': String(outcome?.includedNewCount ?? 0),
    'X-Service-PAYG-New-Opportunity-Count': String(outcome?.paygNewCount ?? 0),
    'X-Service-Period-End': usage.periodEnd.toISOString(),
  } satisfies ResponseHeaderValues;
  // contract §18.4: only plan-billed accounts name a plan.
  if (usage.billingModel === 'plan' && usage.planId !== null)
    headers['X-Service-Plan' satisfies ResponseHeader] = usage.planId;
  // contract §18.5: direct traffic never carries the marketplace billing increment.
  if (opts.marketplaceVerified)
    headers['X-Marketplace-Billing' satisfies ResponseHeader] = `Opportunities=${newCount}`;
  return headers;
}
