import { randomUUID } from 'node:crypto';
import type { Opportunity } from '../../src/domain/record';
import { syncIncremental } from '../../src/search/sync';
import type { AppDeps } from '../../src/service/context';
import { upsertOpportunities } from '../../src/store/opportunity-repo';

type Classification = Pick<
  Opportunity,
  'job_domain' | 'job_family' | 'job_subfamily' | 'job_class'
>;

/** Taxonomy v1 chains used by tests (src/domain/taxonomy/occupations.v1.json). */
export const CLASSES = {
  snowflake: ['software_data_ai', 'data', 'data_engineering', 'snowflake_data_engineer'],
  etl: ['software_data_ai', 'data', 'data_engineering', 'etl_developer'],
  dataScientist: ['software_data_ai', 'data', 'data_science', null],
  javaBackend: [
    'software_data_ai',
    'software_engineering',
    'backend_engineering',
    'java_backend_developer',
  ],
  react: ['software_data_ai', 'software_engineering', 'frontend_engineering', 'react_developer'],
} as const;

export function classified(chain: readonly (string | null)[]): Classification {
  const [job_domain = null, job_family = null, job_subfamily = null, job_class = null] = chain;
  return { job_domain, job_family, job_subfamily, job_class };
}

/** A valid public record; every field can be overridden. */
export function makeRecord(overrides: Partial<Opportunity> = {}): Opportunity {
  const firstSeen = overrides.first_seen ?? '2026-10-01T12:00:00.000Z';
  return {
    id: randomUUID(),
    title: 'Senior Snowflake Data Engineer (Contract)',
    normalized_title: 'snowflake data engineer',
    employer: 'Acme Analytics',
    intermediary: null,
    organizations: [{ name: 'Acme Analytics', role: 'employer' }],
    canonical_url: 'https://jobs.example.com/acme/123',
    application_url: 'https://jobs.example.com/acme/123/apply',
    sources: [
      {
        source: 'greenhouse',
        external_id: '123',
        url: 'https://boards.example.com/123',
        observed_at: firstSeen,
      },
    ],
    published_at: '2026-10-01T00:00:00.000Z',
    published_precision: 'day',
    first_seen: firstSeen,
    changed_at: firstSeen,
    last_verified_live_at: firstSeen,
    liveness_status: 'live',
    technology_classification: 'core_technology',
    ...classified(CLASSES.snowflake),
    level: 'senior',
    management_track: 'individual_contributor',
    specializations: ['snowflake', 'dbt'],
    engagement_models: ['w2_contract', 'c2c'],
    commercial_eligibility: 'eligible',
    actionability: 'actionable',
    location: {
      text: 'Austin, TX',
      city: 'Austin',
      region: 'Texas',
      region_code: 'TX',
      country: 'US',
      remote: false,
      remote_scope: 'unknown',
    },
    rate: { min: 80, max: 100, currency: 'USD', unit: 'hour' },
    is_low_pay: false,
    pay_basis: 'hourly',
    work_structure: 'contract_duration',
    duration: { months_min: 6, months_max: 12, text: '6-12 months' },
    evidence: [
      {
        field: 'engagement_models',
        value: 'c2c',
        strength: 'explicit',
        excerpt: 'C2C welcome',
        source: 'greenhouse',
      },
    ],
    ...overrides,
  };
}

/** Stores records as canonical and syncs them, as `import` does. */
export async function storeAndIndex(deps: AppDeps, records: Opportunity[]): Promise<void> {
  await upsertOpportunities(deps.pool, records, deps.taxonomy.version);
  await syncIncremental(deps);
}
