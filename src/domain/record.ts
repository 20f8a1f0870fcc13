import { z } from 'zod';
import { ISO_CURRENCY_CODES } from './currencies';
import { ISO_COUNTRY_CODES } from './filters/countries';
import {
  Actionability,
  CommercialEligibility,
  EngagementModel,
  EvidenceStrength,
  Level,
  LivenessStatus,
  ManagementTrack,
  OrganizationRole,
  PayBasis,
  PublishedPrecision,
  RateUnit,
  RemoteScope,
  TechnologyClassification,
  WorkStructure,
} from './vocab';

// The public opportunity record: contract §2.1 plus `evidence` (§2.5). This one schema
// validates imports, types the code and describes responses in the OpenAPI document.

// An instant of the years 0001-9999 once in UTC (contract §2.7): what the store's timestamptz
// takes (year 0000 made Postgres refuse the whole import batch) and what a served UTC text can
// write in four digits (9999-12-31T23:30-01:00 is in year 10000). A refinement, so the published
// schema stays the date-time format.
const dateTime = z.iso.datetime({ offset: true }).refine((text) => {
  const year = new Date(text).getUTCFullYear();
  return year >= 1 && year <= 9999;
}, 'a date-time of the years 0001 to 9999 in UTC');
// contract §2.7.1: absolute http(s) URLs only; `javascript:`, `data:`, `ftp:`... are refused on import
// (a client may render these as links). The pattern repeats the rule for the JSON Schema readers,
// and asks what a WHATWG parser forgives but an RFC 3986 client does not: a host right after the
// `//` (`https:///x` has none), no whitespace (`/a b`) and no backslash (`good.example\@evil` has
// another host for each). Checked on the text as written: zod's url() trims it and drops tabs and
// line breaks before any later check, so `https://exa\tmple.com` was stored as example.com.
const HTTP_URL = /^[Hh][Tt][Tt][Pp][Ss]?:\/\/[^/?#\s\\]+(?:[/?#][^\s\\]*)?$/;
const url = z
  .string()
  .min(1)
  .max(2083)
  .regex(HTTP_URL, 'must be an absolute http or https URL with a host, no whitespace, no backslash')
  .refine((text) => URL.canParse(text), 'must be an absolute http or https URL');
const text = (max: number) => z.string().max(max);

// contract §2.7: a number is stored and served as the double JSON reads it as, so one past 2^53
// (9007199254740993, 12345678901234567890, 1e21) came back as another number (9007199254740992)
// with nothing said. Within ±(2^53 - 1) every integer is exact.
const STORABLE = Number.MAX_SAFE_INTEGER;
const storableNumber = () =>
  z
    .number()
    .min(-STORABLE, 'must be at least -9007199254740991: larger numbers are not stored exactly')
    .max(STORABLE, 'must be at most 9007199254740991: larger numbers are not stored exactly');
const amount = () => storableNumber().nonnegative();

export const Organization = z.strictObject({
  name: text(300).min(1),
  role: OrganizationRole,
});

export const Source = z.strictObject({
  source: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[a-z0-9_.-]+$/, 'a stable lower-case source id'),
  external_id: text(256).nullable(),
  url: url.nullable(),
  observed_at: dateTime,
});

export const Location = z.strictObject({
  text: text(500).nullable(),
  city: text(120).nullable(),
  region: text(120).nullable(),
  region_code: text(10).nullable(),
  // An assigned code, as the country filter takes: a record in XX could be counted in a facet
  // bucket that no filter can then ask for.
  country: z
    .enum([...ISO_COUNTRY_CODES] as [string, ...string[]], {
      error: 'ISO 3166-1 alpha-2: an assigned code, upper case',
    })
    .nullable(),
  remote: z.boolean().nullable(),
  remote_scope: RemoteScope,
});

export const Rate = z
  .strictObject({
    min: amount().nullable(),
    max: amount().nullable(),
    // A refinement, not an enum: the published record schema (OpenAPI, MCP output) stays a
    // three-letter pattern instead of growing by 180 values on every tool listing.
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/, 'ISO 4217, upper case')
      .refine((code) => ISO_CURRENCY_CODES.has(code), 'ISO 4217: an assigned code'),
    unit: RateUnit,
  })
  .refine((r) => r.min !== null || r.max !== null, { message: 'min and max cannot both be null' })
  .refine((r) => r.min === null || r.max === null || r.min <= r.max, {
    message: 'min must not exceed max',
  });

export const Duration = z.strictObject({
  months_min: amount().nullable(),
  months_max: amount().nullable(),
  text: text(300).nullable(),
});

export const Evidence = z.strictObject({
  field: text(64).min(1),
  // contract §2.7.2: every text field has a bound, this one included.
  value: z.union([text(500), storableNumber(), z.boolean(), z.null()]),
  strength: EvidenceStrength,
  excerpt: text(500),
  source: text(64).nullable(),
});

const taxonomyId = z
  .string()
  .max(100)
  .regex(/^[a-z0-9_]+$/)
  .nullable();

const OpportunityShape = z.strictObject({
  id: z.uuid(),
  title: text(500).min(1),
  normalized_title: text(300).min(1),
  employer: text(300).nullable(),
  intermediary: text(300).nullable(),
  organizations: z.array(Organization).max(20),
  canonical_url: url.nullable(),
  application_url: url.nullable(),
  sources: z.array(Source).max(50),
  published_at: dateTime.nullable(),
  published_precision: PublishedPrecision,
  first_seen: dateTime,
  changed_at: dateTime,
  last_verified_live_at: dateTime.nullable(),
  liveness_status: LivenessStatus,
  technology_classification: TechnologyClassification,
  job_domain: taxonomyId,
  job_family: taxonomyId,
  job_subfamily: taxonomyId,
  job_class: taxonomyId,
  level: Level,
  management_track: ManagementTrack,
  specializations: z.array(text(100).min(1)).max(50),
  engagement_models: z.array(EngagementModel).max(3),
  commercial_eligibility: CommercialEligibility,
  actionability: Actionability,
  location: Location,
  rate: Rate.nullable(),
  is_low_pay: z.boolean(),
  pay_basis: PayBasis,
  work_structure: WorkStructure,
  duration: Duration.nullable(),
  evidence: z.array(Evidence).max(100),
});

export const Opportunity = OpportunityShape.refine(
  (r) => (r.published_at === null) === (r.published_precision === 'unknown'),
  {
    message: 'published_precision is unknown exactly when published_at is null',
    path: ['published_precision'],
  },
).refine((r) => new Set(r.engagement_models).size === r.engagement_models.length, {
  message: 'engagement_models must not repeat',
  path: ['engagement_models'],
});

export type Opportunity = z.infer<typeof Opportunity>;

/** The top-level field names of the public record, in its order: what `fields` may name. */
export const OPPORTUNITY_FIELDS = Object.keys(OpportunityShape.shape) as (keyof Opportunity)[];

/**
 * A record as returned with `fields` (contract §7.6): its id and the named fields, nothing else.
 * Declared loosely (id, then any of Opportunity's fields) rather than as a second copy of the
 * record's schema: every tool listing and the OpenAPI document would otherwise carry ~7 KB more,
 * which is what an agent's context pays for on every connection.
 */
export const SparseOpportunity = z
  .looseObject({ id: z.uuid() })
  .describe(
    'A record returned with `fields`: id plus the named top-level fields only, each as in Opportunity.',
  );
export type SparseOpportunity = { id: string } & Partial<Opportunity>;

/**
 * contract §9.5: the anonymous preview shows where a record came from, not its source details
 * nor any URL to reach it.
 */
export const PreviewOpportunity = OpportunityShape.extend({
  canonical_url: z.null(),
  application_url: z.null(),
  sources: z.array(z.strictObject({ source: Source.shape.source })),
});
export type PreviewOpportunity = z.infer<typeof PreviewOpportunity>;
export type Rate = z.infer<typeof Rate>;
export type Location = z.infer<typeof Location>;

/** Freshness, the list order's key (contract §8.1): published_at, else first_seen. */
export function freshnessOf(r: Pick<Opportunity, 'published_at' | 'first_seen'>): string {
  return r.published_at ?? r.first_seen;
}
