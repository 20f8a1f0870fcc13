import type { UsageSnapshot } from '../billing/snapshot';
import type { ResponseHeader } from '../domain/response-headers';
import type { UsageEnvelope } from '../domain/usage-envelope';

// contract §5.7: the usage envelope is read off the response's own headers (§18.3), so that
// every figure equals its header by construction; only what no header carries (the period start,
// the billing model) comes from the snapshot the headers were built from.

function intOrNull(value: string | undefined): number | null {
  return value === undefined ? null : Number(value);
}

export function usageEnvelope(
  headers: Record<string, string>,
  snapshot: UsageSnapshot,
  requestId: string,
): UsageEnvelope {
  const h = (name: ResponseHeader) => headers[name];
  return {
    plan: (h('X-Service-Plan') as UsageEnvelope['plan'] | undefined) ?? null,
    billing_model: snapshot.billingModel,
    period: {
      start: snapshot.periodStart.toISOString(),
      end: h('X-Service-Period-End') ?? snapshot.periodEnd.toISOString(),
    },
    opportunities: {
      limit: intOrNull(h('X-Service-Opportunity-Limit')),
      used: Number(h('X-Service-Opportunity-Used') ?? snapshot.used),
      remaining: Number(h('X-Service-Opportunity-Remaining') ?? snapshot.remaining),
    },
    balance_millicents: Number(h('X-Service-Balance-Millicents') ?? snapshot.balanceMillicents),
    prepaid_credits: Number(h('X-Service-Prepaid-Opportunity-Credits') ?? snapshot.prepaidCredits),
    rate_limit: {
      limit: Number(h('X-RateLimit-Limit')),
      remaining: Number(h('X-RateLimit-Remaining')),
      reset: Number(h('X-RateLimit-Reset')),
    },
    meta: { request_id: requestId },
  };
}
