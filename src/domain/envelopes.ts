import { z } from 'zod';
import { ERROR_REASONS, ERROR_STATUS } from './errors';
import { Opportunity, PreviewOpportunity, SparseOpportunity } from './record';
import { TAXONOMY_LEVELS } from './taxonomy';

// The response envelopes of contract §4 as zod schemas: they type the service layer and generate
// the OpenAPI document and the MCP tools' output schemas, so all three describe one shape.

export const AppliedFilters = z
  .record(z.string(), z.unknown())
  .describe(
    'The normalized filters that were applied: lists as arrays, dates as UTC ISO strings, numbers as numbers.',
  );

/** A record as served: whole, or sparse when the request named `fields` (contract §7.6). */
export const ServedOpportunity = z.union([Opportunity, SparseOpportunity]);

export const ListEnvelope = z.object({
  data: z.array(ServedOpportunity),
  pagination: z.object({
    returned: z.number().int().min(0),
    next_cursor: z
      .string()
      .nullable()
      .describe(
        'Opaque signed cursor for the next page, bound to these filters; null on the last page.',
      ),
    has_more: z.boolean().describe('True exactly when next_cursor is not null.'),
    limit: z.number().int().min(1).max(100),
  }),
  meta: z.object({ request_id: z.string(), applied_filters: AppliedFilters }),
});

export const PreviewListEnvelope = ListEnvelope.extend({ data: z.array(PreviewOpportunity) });

const FacetValueSchema = z
  .union([z.string(), z.boolean()])
  .describe('The bucket value, of the filter type (remote buckets are booleans).');
const OtherCount = z
  .number()
  .int()
  .min(0)
  .describe('Matching records in no returned bucket of this level, missing values included.');
const InnerBucket = z.object({ value: FacetValueSchema, count: z.number().int().min(0) });
export const FacetBucket = InnerBucket.extend({
  groups: z
    .array(InnerBucket)
    .optional()
    .describe('The second group_by dimension inside this bucket.'),
  other_count: OtherCount.optional(),
});

// contract §10.4, §10.5: histograms and rate statistics (named components of the OpenAPI document).
export const HistogramBucket = z
  .object({
    start: z
      .string()
      .describe(
        "The bucket's first instant, ISO 8601 UTC: midnight, the Monday of the week or the 1st of the month.",
      ),
    count: z.number().int().min(0).describe('Matching records in the bucket (exact).'),
  })
  .describe('One UTC time bucket of the histogram.');

const RateFigure = (what: string) =>
  z
    .number()
    .nullable()
    .describe(`${what}; null when the entry has fewer records than the service's minimum.`);

export const RateStatistics = z
  .object({
    unit: z.string().describe('The rate unit: hour, day, month, year or project.'),
    currency: z.string().describe('ISO 4217 currency code.'),
    count: z
      .number()
      .int()
      .min(1)
      .describe('Matching records with a rate in this unit and currency (exact).'),
    min: RateFigure('The smallest rate value (exact)'),
    max: RateFigure('The largest rate value (exact)'),
    p25: RateFigure('25th percentile of the rate values (within 5 %)'),
    median: RateFigure('Median of the rate values (within 5 %)'),
    p75: RateFigure('75th percentile of the rate values (within 5 %)'),
  })
  .describe(
    "Statistics of one (unit, currency): a record's rate value is the midpoint of its rate min and max, or the one bound given.",
  );

export const CountEnvelope = z.object({
  count: z.number().int().min(0),
  groups: z
    .array(FacetBucket)
    .optional()
    .describe(
      'With group_by: the top group_limit buckets by count descending, then value; a bucket counts what the same filters plus that value count.',
    ),
  other_count: OtherCount.optional(),
  new_count: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe(
      'With include=new_count: matching records not yet delivered to this account in the current period (what listing them all would consume).',
    ),
  new_cost_millicents: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe(
      'With include=new_count: what listing them all would take from the prepaid wallet after the remaining included allowance.',
    ),
  histogram: z
    .array(HistogramBucket)
    .optional()
    .describe(
      'With histogram and interval: matching records per UTC bucket, ascending, empty buckets included between the first and the last non-empty one (an empty array when nothing matches).',
    ),
  rate_stats: z
    .array(RateStatistics)
    .optional()
    .describe(
      'With stats=rate: one entry per (unit, currency) with at least one matching record that has a rate, by count descending, then unit, then currency.',
    ),
  meta: z.object({ request_id: z.string(), applied_filters: AppliedFilters }),
});

export const DetailEnvelope = z.object({
  data: ServedOpportunity,
  meta: z.object({ request_id: z.string() }),
});

export const TaxonomyNodeSchema = z.object({
  id: z.string(),
  parent_id: z.string().nullable(),
  level: z.enum(TAXONOMY_LEVELS),
  label: z.string(),
});

export const TaxonomyEnvelope = z.object({
  version: z.string(),
  root: z.string(),
  nodes: z.array(TaxonomyNodeSchema),
});

export const ErrorEnvelope = z.object({
  error: z.object({
    code: z.enum(
      Object.keys(ERROR_STATUS) as [keyof typeof ERROR_STATUS, ...(keyof typeof ERROR_STATUS)[]],
    ),
    message: z.string(),
    request_id: z.string(),
    details: z
      .object({ parameter: z.string(), reason: z.enum(ERROR_REASONS) })
      .optional()
      .describe('For 400 and 422: the offending parameter and a short machine-readable reason.'),
  }),
});

export type ListEnvelope = z.infer<typeof ListEnvelope>;
export type PreviewListEnvelope = z.infer<typeof PreviewListEnvelope>;
export type CountEnvelope = z.infer<typeof CountEnvelope>;
export type DetailEnvelope = z.infer<typeof DetailEnvelope>;
export type TaxonomyEnvelope = z.infer<typeof TaxonomyEnvelope>;
