import { z } from 'zod';

// Closed vocabularies of the public record: contract §2.3.
// `unknown` is always a member and the default: it means "no supported value".

export const ENGAGEMENT_MODELS = ['w2_contract', '1099', 'c2c'] as const;
export const COMMERCIAL_ELIGIBILITY = [
  'eligible',
  'ineligible',
  'research_required',
  'unknown',
] as const;
export const PAY_BASES = [
  'hourly',
  'daily',
  'monthly',
  'annual',
  'fixed_project',
  'unknown',
] as const;
export const WORK_STRUCTURES = [
  'fixed_project',
  'ongoing_contract',
  'contract_duration',
  'freelance_ad_hoc',
  'unknown',
] as const;
export const LIVENESS_STATUSES = ['live', 'unknown', 'blocked', 'dead'] as const;
export const LEVELS = [
  'intern',
  'junior',
  'mid',
  'senior',
  'lead',
  'staff',
  'principal',
  'director',
  'executive',
  'unknown',
] as const;
export const MANAGEMENT_TRACKS = ['individual_contributor', 'people_manager', 'unknown'] as const;
export const TECHNOLOGY_CLASSIFICATIONS = [
  'core_technology',
  'technology_adjacent',
  'non_technology',
  'unknown',
] as const;
export const ACTIONABILITY = ['actionable', 'not_actionable', 'unknown'] as const;
export const PUBLISHED_PRECISIONS = ['second', 'day', 'month', 'unknown'] as const;
export const ORGANIZATION_ROLES = ['employer', 'intermediary', 'client', 'unknown'] as const;
export const EVIDENCE_STRENGTHS = ['explicit', 'strong_inference', 'weak_inference'] as const;
export const REMOTE_SCOPES = ['worldwide', 'country', 'region', 'unknown'] as const;
export const RATE_UNITS = ['hour', 'day', 'month', 'year', 'project'] as const;

export const EngagementModel = z.enum(ENGAGEMENT_MODELS);
export const CommercialEligibility = z.enum(COMMERCIAL_ELIGIBILITY);
export const PayBasis = z.enum(PAY_BASES);
export const WorkStructure = z.enum(WORK_STRUCTURES);
export const LivenessStatus = z.enum(LIVENESS_STATUSES);
export const Level = z.enum(LEVELS);
export const ManagementTrack = z.enum(MANAGEMENT_TRACKS);
export const TechnologyClassification = z.enum(TECHNOLOGY_CLASSIFICATIONS);
export const Actionability = z.enum(ACTIONABILITY);
export const PublishedPrecision = z.enum(PUBLISHED_PRECISIONS);
export const OrganizationRole = z.enum(ORGANIZATION_ROLES);
export const EvidenceStrength = z.enum(EVIDENCE_STRENGTHS);
export const RemoteScope = z.enum(REMOTE_SCOPES);
export const RateUnit = z.enum(RATE_UNITS);

export type EngagementModel = z.infer<typeof EngagementModel>;
export type WorkStructure = z.infer<typeof WorkStructure>;
export type PayBasis = z.infer<typeof PayBasis>;
export type LivenessStatus = z.infer<typeof LivenessStatus>;
