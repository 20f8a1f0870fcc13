import type { Opportunity } from '../domain/record';
import type { EngagementModel, LivenessStatus, WorkStructure } from '../domain/vocab';
import type { Rng, Weighted } from './prng';

// The commercial terms of a posting and how they hang together: W2/1099/C2C are US terms (abroad,
// freelance work normalizes to 1099), eligibility follows from what the engagement permits
// (w2_contract is no evidence of c2c), and only live postings are actionable.

type Duration = NonNullable<Opportunity['duration']>;

// prettier-ignore
const US_MODELS: Weighted<readonly EngagementModel[]> = [
  [['w2_contract'], 25], [['c2c'], 8], [['1099'], 12], [['w2_contract', 'c2c'], 17],
  [['w2_contract', '1099', 'c2c'], 7], [['1099', 'c2c'], 5], [['w2_contract', '1099'], 4], [[], 22],
];
const ABROAD_MODELS: Weighted<readonly EngagementModel[]> = [
  [[], 45],
  [['1099'], 45],
  [['c2c'], 10],
];
const MARKETPLACE_MODELS: Weighted<readonly EngagementModel[]> = [
  [['1099'], 85],
  [[], 15],
];

export function drawEngagement(
  rng: Rng,
  country: string | null,
  marketplace: boolean,
): EngagementModel[] {
  const table = marketplace ? MARKETPLACE_MODELS : country === 'US' ? US_MODELS : ABROAD_MODELS;
  return rng.weighted(table).slice(); // a copy: records must not share mutable arrays
}

// prettier-ignore
const STRUCTURES: Weighted<WorkStructure> = [
  ['contract_duration', 40], ['ongoing_contract', 15], ['fixed_project', 10],
  ['freelance_ad_hoc', 7], ['unknown', 28],
];
const MARKETPLACE_STRUCTURES: Weighted<WorkStructure> = [
  ['fixed_project', 45],
  ['freelance_ad_hoc', 40],
  ['ongoing_contract', 15],
];

export function drawWorkStructure(rng: Rng, marketplace: boolean): WorkStructure {
  return rng.weighted(marketplace ? MARKETPLACE_STRUCTURES : STRUCTURES);
}

/** [months_min, months_max, text] as postings phrase them. */
// prettier-ignore
const CONTRACT_TERMS: readonly (readonly [number | null, number | null, string])[] = [
  [3, 3, '3 month contract'], [6, 6, '6 months'], [6, 12, '6-12 month contract'],
  [12, 12, '12 months'], [12, null, '12+ months'], [6, null, '6+ month contract with likely extension'],
  [3, 6, '3-6 months'], [9, 9, '9 month contract'], [18, 24, '18-24 months'],
  [null, 12, 'Up to 12 months'], [1, 1, '4 weeks'], [4, 4, '4 month contract-to-hire'],
];
const PROJECT_TERMS: readonly (readonly [number | null, number | null, string])[] = [
  [1, 2, '6-8 week project'],
  [3, 3, '3 month project'],
  [null, null, 'Project-based, timeline to be agreed'],
];

export function drawDuration(rng: Rng, structure: WorkStructure): Duration | null {
  let terms: (typeof CONTRACT_TERMS)[number] | null = null;
  if (structure === 'contract_duration') terms = rng.pick(CONTRACT_TERMS);
  else if (structure === 'fixed_project' && rng.chance(0.2)) terms = rng.pick(PROJECT_TERMS);
  if (!terms) return null;
  const [min, max, text] = terms;
  return { months_min: min, months_max: max, text };
}

export function drawEligibility(
  rng: Rng,
  models: readonly EngagementModel[],
): Opportunity['commercial_eligibility'] {
  if (models.includes('c2c') || models.includes('1099'))
    return rng.weighted([
      ['eligible', 60],
      ['research_required', 20],
      ['unknown', 20],
    ] as const);
  if (models.includes('w2_contract'))
    return rng.weighted([
      ['ineligible', 50],
      ['research_required', 20],
      ['unknown', 30],
    ] as const);
  return rng.weighted([
    ['unknown', 55],
    ['research_required', 35],
    ['ineligible', 10],
  ] as const);
}

export function drawActionability(
  rng: Rng,
  liveness: LivenessStatus,
  eligibility: Opportunity['commercial_eligibility'],
  hasApplicationUrl: boolean,
): Opportunity['actionability'] {
  switch (liveness) {
    case 'live':
      if (!hasApplicationUrl) return 'unknown';
      if (eligibility === 'ineligible') return rng.chance(0.6) ? 'not_actionable' : 'unknown';
      return rng.chance(0.85) ? 'actionable' : 'unknown';
    case 'dead':
      return rng.chance(0.9) ? 'not_actionable' : 'unknown';
    default:
      return rng.chance(0.75) ? 'unknown' : 'not_actionable';
  }
}

/** A management track consistent with the level: directors and executives manage people. */
export function drawManagementTrack(
  rng: Rng,
  level: Opportunity['level'],
  leadership: boolean,
): Opportunity['management_track'] {
  if (level === 'director' || level === 'executive')
    return rng.chance(0.9) ? 'people_manager' : 'unknown';
  if (leadership) return rng.chance(0.85) ? 'people_manager' : 'unknown';
  if (level === 'lead')
    return rng.weighted([
      ['individual_contributor', 60],
      ['people_manager', 20],
      ['unknown', 20],
    ] as const);
  return rng.weighted([
    ['individual_contributor', 80],
    ['unknown', 18],
    ['people_manager', 2],
  ] as const);
}
