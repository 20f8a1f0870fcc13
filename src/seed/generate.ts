import type { Opportunity } from '../domain/record';
import type { Taxonomy } from '../domain/taxonomy';
import type { TaxonomyCatalog } from '../domain/taxonomy/catalog';
import type { EngagementModel, WorkStructure } from '../domain/vocab';
import { drawEvidence } from './evidence';
import { drawPlace, type Place } from './location';
import { OrganizationPool } from './organizations';
import { drawPay } from './pay';
import { Rng } from './prng';
import { RoleTable, drawTitle, levelInTitle, type Level, type Role } from './roles';
import { GENERIC_SKILLS } from './skills';
import { drawProvenance } from './sources';
import {
  drawActionability,
  drawDuration,
  drawEligibility,
  drawEngagement,
  drawManagementTrack,
  drawWorkStructure,
} from './terms';
import { drawTimeline } from './timeline';

// Deterministic, realistic synthetic opportunities (contract §22.9: `seed --count N [--seed S]`).
// One PRNG stream drives everything, so a seed fixes the output and a longer run starts with the
// records of a shorter one. Records are built to satisfy the Opportunity schema by construction;
// the generator does not zod-parse them (too slow at a million records) - the tests do.

export interface GenerateOptions {
  count: number;
  seed: number;
  taxonomy: Taxonomy;
  catalog: TaxonomyCatalog;
  /** The reference time; everything lies in the ~180 days before it. Fixed by default. */
  now?: Date;
}

export const DEFAULT_SEED_NOW = new Date('2026-11-01T00:00:00Z');

/** Share of postings our classifier could not place at all. */
const UNCLASSIFIED_SHARE = 0.02;
/** Share of postings from a freelance marketplace. */
const MARKETPLACE_SHARE = 0.06;
/** Every Nth record carries an injection attempt in an evidence excerpt. */
const ADVERSARIAL_EVERY = 150;

/** Vague titles that support no classification, with their normalized form. */
// prettier-ignore
const UNCLASSIFIED_TITLES: readonly (readonly [string, string])[] = [
  ['Consultant', 'consultant'], ['Technical Consultant', 'technical consultant'],
  ['Analyst', 'analyst'], ['Contract Specialist', 'contract specialist'],
  ['Associate (Contract)', 'associate'], ['Project Resource', 'project resource'],
  ['Technology Associate', 'technology associate'], ['Contractor - Various Roles', 'contractor'],
  ['Specialist II', 'specialist'], ['Analyst III', 'analyst'], ['Technical Resource', 'technical resource'],
  ['Senior Consultant', 'consultant'], ['Operations Analyst', 'operations analyst'],
];

const WITH_ARTICLE = new Set(['US', 'GB', 'NL']);

export function* generateOpportunities(opts: GenerateOptions): Generator<Opportunity> {
  if (!Number.isSafeInteger(opts.count) || opts.count < 0)
    throw new RangeError(`count must be a non-negative integer: ${opts.count}`);
  const rng = new Rng(opts.seed);
  const roles = new RoleTable(opts.taxonomy, opts.catalog);
  const organizations = new OrganizationPool(rng);
  const nowMs = Math.floor((opts.now ?? DEFAULT_SEED_NOW).getTime() / 1000) * 1000;
  if (!Number.isFinite(nowMs)) throw new RangeError('now must be a valid date');
  for (let index = 0; index < opts.count; index++) {
    yield buildRecord(rng, index, roles, organizations, nowMs);
  }
}

function buildRecord(
  rng: Rng,
  index: number,
  roles: RoleTable,
  organizations: OrganizationPool,
  nowMs: number,
): Opportunity {
  const id = rng.uuid();
  const role = rng.chance(UNCLASSIFIED_SHARE) ? null : roles.pick(rng);
  const {
    title: baseTitle,
    level,
    stated,
    normalizedTitle,
    technologies,
  } = drawRoleTitle(rng, role);

  const marketplace = rng.chance(MARKETPLACE_SHARE);
  const place = drawPlace(rng, marketplace);
  const market = place.market;
  const orgs = organizations.draw(rng, market?.code ?? null, marketplace);
  const workStructure = drawWorkStructure(rng, marketplace);
  const duration = drawDuration(rng, workStructure);
  const models = drawEngagement(rng, market?.code ?? null, marketplace);
  const pay = drawPay(rng, {
    currency: market?.currency ?? 'USD',
    market: market?.market ?? 'worldwide',
    workStructure,
    level,
    familyFactor: role?.payFactor ?? 1,
  });
  const time = drawTimeline(rng, nowMs);
  const title = decorateTitle(
    rng,
    baseTitle,
    place,
    models,
    workStructure,
    duration?.months_min ?? null,
    duration?.months_max ?? null,
  );
  const provenance = drawProvenance(rng, {
    kind: orgs.kind,
    poster: orgs.poster,
    title,
    city: place.location.city,
    country: market?.code ?? null,
    firstSeenMs: time.firstSeenMs,
    nowMs,
  });
  const eligibility = drawEligibility(rng, models);

  const record: Opportunity = {
    id,
    title,
    normalized_title: normalizedTitle,
    employer: orgs.employer,
    intermediary: orgs.intermediary,
    organizations: orgs.organizations,
    canonical_url: provenance.canonicalUrl,
    application_url: provenance.applicationUrl,
    sources: provenance.sources,
    published_at: time.publishedAt,
    published_precision: time.publishedPrecision,
    first_seen: time.firstSeen,
    changed_at: time.changedAt,
    last_verified_live_at: time.lastVerifiedLiveAt,
    liveness_status: time.liveness,
    technology_classification: role?.classification ?? 'unknown',
    job_domain: role?.domainId ?? null,
    job_family: role?.familyId ?? null,
    job_subfamily: role?.subfamilyId ?? null,
    job_class: role?.classId ?? null,
    level,
    management_track: drawManagementTrack(rng, level, role?.leadership ?? false),
    specializations: drawSpecializations(rng, role, technologies),
    engagement_models: models,
    commercial_eligibility: eligibility,
    actionability: drawActionability(
      rng,
      time.liveness,
      eligibility,
      provenance.applicationUrl !== null,
    ),
    location: place.location,
    rate: pay.rate,
    is_low_pay: pay.isLowPay,
    pay_basis: pay.payBasis,
    work_structure: workStructure,
    duration,
    evidence: [],
  };
  const countryCode = place.location.country;
  record.evidence = drawEvidence(rng, record, {
    levelTitle: stated ? baseTitle : null,
    subfamilyLabel: role?.subfamilyLabel ?? 'technology',
    countryCode,
    countryPhrase:
      market && countryCode
        ? WITH_ARTICLE.has(countryCode)
          ? `the ${market.name}`
          : market.name
        : null,
    remoteArea: place.remoteArea,
    adversarial: index % ADVERSARIAL_EVERY === ADVERSARIAL_EVERY - 1,
  });
  return record;
}

interface RoleTitle {
  title: string;
  level: Level;
  stated: boolean;
  normalizedTitle: string;
  technologies: readonly string[];
}

function drawRoleTitle(rng: Rng, role: Role | null): RoleTitle {
  if (role) return { ...drawTitle(rng, role), normalizedTitle: role.normalizedTitle };
  const [title, normalizedTitle] = rng.pick(UNCLASSIFIED_TITLES);
  const level = levelInTitle(title);
  return {
    title,
    level: level ?? 'unknown',
    stated: level !== null,
    normalizedTitle,
    technologies: [],
  };
}

/** "Title (note)", or "Title - note" when the title already has one: "PM (IT) (Remote)" reads wrong. */
const aside = (title: string, note: string): string =>
  title.includes('(') ? `${title} - ${note}` : `${title} (${note})`;

/** Board-style title suffixes ("- Remote (US)", "(W2 Only)"), only ones the record supports. */
function decorateTitle(
  rng: Rng,
  title: string,
  place: Place,
  models: readonly EngagementModel[],
  structure: WorkStructure,
  monthsMin: number | null,
  monthsMax: number | null,
): string {
  if (!rng.chance(0.3)) return title;
  const options: string[] = [];
  const loc = place.location;
  if (loc.remote === true) {
    options.push(aside(title, 'Remote'));
    if (loc.remote_scope === 'country' && place.market)
      options.push(`${title} - Remote (${place.market.short})`);
  }
  if (place.hybrid) options.push(`${title} - Hybrid`);
  const w2 = models.includes('w2_contract');
  if (models.includes('c2c')) options.push(w2 ? aside(title, 'W2/C2C') : `${title} - C2C`);
  else if (w2 && models.length === 1) options.push(aside(title, 'W2 Only'));
  if (
    structure === 'contract_duration' &&
    monthsMin !== null &&
    monthsMin === monthsMax &&
    monthsMin > 1
  )
    options.push(`${title} - ${monthsMin} Month Contract`);
  if (structure === 'contract_duration' || structure === 'ongoing_contract')
    options.push(`${title} - Contract`);
  if (structure === 'fixed_project') options.push(aside(title, 'Project-Based'));
  if (structure === 'freelance_ad_hoc') options.push(`Freelance ${title}`);
  return options.length > 0 ? rng.pick(options) : title;
}

/** 1-4 skills: technologies the title names first, then its subfamily's generic skills. */
function drawSpecializations(
  rng: Rng,
  role: Role | null,
  technologies: readonly string[],
): string[] {
  if (!role) return rng.chance(0.6) ? [] : rng.sample(GENERIC_SKILLS, rng.int(1, 2));
  const wanted = rng.int(1, 4);
  const out = rng.sample(technologies, Math.min(wanted, rng.int(1, 2)));
  for (const skill of rng.sample(role.skillPool, wanted)) {
    if (out.length >= wanted) break;
    if (!out.includes(skill)) out.push(skill);
  }
  return out;
}
