import { z } from 'zod';
import { BILLING_MODELS, PLAN_IDS } from './account';

// contract §5.7: GET /v1/usage and the MCP tool get_usage return what the usage headers of
// contract §18.3 say, in one body. Every figure equals the matching header of the same response;
// a figure whose header is absent is null.

const count = z.number().int().min(0);

export const UsageEnvelope = z.object({
  plan: z
    .enum(PLAN_IDS)
    .nullable()
    .describe('X-Service-Plan: the plan of a plan-billed account; null for legacy billing models.'),
  billing_model: z.enum(BILLING_MODELS),
  period: z.object({
    start: z.iso.datetime().describe('Inclusive start of the current period.'),
    end: z.iso.datetime().describe('X-Service-Period-End: exclusive end of the current period.'),
  }),
  opportunities: z.object({
    limit: count
      .nullable()
      .describe('X-Service-Opportunity-Limit: included allowance per period; null when absent.'),
    used: count.describe('X-Service-Opportunity-Used: unique opportunities delivered this period.'),
    remaining: count.describe('X-Service-Opportunity-Remaining: included allowance left.'),
  }),
  balance_millicents: z
    .number()
    .int()
    .describe('X-Service-Balance-Millicents: prepaid wallet balance.'),
  prepaid_credits: count.describe(
    'X-Service-Prepaid-Opportunity-Credits: opportunities the balance can still pay for.',
  ),
  rate_limit: z.object({
    limit: count.describe('X-RateLimit-Limit: requests per window.'),
    remaining: count.describe('X-RateLimit-Remaining: requests left in the window.'),
    reset: count.describe('X-RateLimit-Reset: whole seconds until the window resets.'),
  }),
  meta: z.object({ request_id: z.string() }),
});

export type UsageEnvelope = z.infer<typeof UsageEnvelope>;
