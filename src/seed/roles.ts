import type { Taxonomy } from '../domain/taxonomy';
import type { TaxonomyCatalog } from '../domain/taxonomy/catalog';
import type { LEVELS, TECHNOLOGY_CLASSIFICATIONS } from '../domain/vocab';
import type { Rng, Weighted } from './prng';
import { subfamilyPool, technologiesOf } from './skills';

// Occupational classes as the generator uses them: the taxonomy supplies the ancestors (so
// job_domain/family/subfamily always agree with job_class) and the catalog supplies real titles.

export type Level = (typeof LEVELS)[number];
type Classification = (typeof TECHNOLOGY_CLASSIFICATIONS)[number];

export interface TitleOption {
  text: string;
  /** The seniority the title itself states ("Senior ...", "Head of ..."), if any. */
  level: Level | null;
  /** Technologies this title or the class label names: "Azure Cloud Architect" -> Azure, not AWS. */
  technologies: readonly string[];
}

export interface Role {
  classId: string;
  subfamilyId: string;
  familyId: string;
  domainId: string;
  subfamilyLabel: string;
  normalizedTitle: string;
  titles: readonly TitleOption[];
  skillPool: readonly string[];
  classification: Classification;
  /** Relative pay of the family, applied to rates. */
  payFactor: number;
  /** Management roles: directors and executives come from their titles, not from decoration. */
  leadership: boolean;
}

/** [share of postings, pay factor] per family: software and data dominate contract boards. */
// prettier-ignore
const FAMILY_MIX: Readonly<Partial<Record<string, readonly [number, number]>>> = {
  software_engineering: [22, 1.05], data: [12, 1.05], machine_learning_ai: [6, 1.15],
  quality_engineering: [7, 0.85], cloud_and_devops: [10, 1.1], cybersecurity: [7, 1.1],
  networking_and_telecom: [4, 0.95], it_operations: [6, 0.6], hardware_engineering: [3, 1.05],
  erp_platforms: [6, 1.15], crm_and_service_platforms: [5, 1.05], business_applications: [4, 1],
  product: [3, 1.05], project_and_program_management: [5, 1], business_analysis: [4, 0.9],
  design: [3, 0.95], technical_communication: [2, 0.8], technology_leadership: [1.5, 1.4],
  technical_consulting: [2, 1],
};
const ADJACENT_FAMILIES = new Set([
  'product',
  'project_and_program_management',
  'business_analysis',
  'design',
  'technical_communication',
  'technical_consulting',
]);
const ADJACENT_SUBFAMILIES = new Set(['ai_data_services']);

/** Seniority words in titles, checked in this order ("Senior Engineering Manager" is senior). */
const TITLE_LEVELS: readonly (readonly [RegExp, Level])[] = [
  [/\b(chief|vp|vice president|cto|cio|ciso)\b/i, 'executive'],
  [/\b(director|head of)\b/i, 'director'],
  [/\bprincipal\b/i, 'principal'],
  [/\bstaff\b/i, 'staff'],
  [/\blead\b/i, 'lead'],
  [/\b(senior|sr\.?)(?![a-z])/i, 'senior'],
  [/\b(junior|jr\.?|entry[- ]level)(?![a-z])/i, 'junior'],
  [/\bintern(ship)?\b/i, 'intern'],
];

export function levelInTitle(title: string): Level | null {
  for (const [re, level] of TITLE_LEVELS) if (re.test(title)) return level;
  return null;
}

export class RoleTable {
  readonly roles: readonly Role[];
  private readonly cumulative: Float64Array;

  constructor(taxonomy: Taxonomy, catalog: TaxonomyCatalog) {
    const roles: Role[] = [];
    const weights: number[] = [];
    const perFamily = new Map<string, number>();
    for (const node of catalog.nodes) {
      if (node.level !== 'class' || !node.titles) continue;
      const role = this.role(taxonomy, node.id, node.label, node.titles);
      if (!role) continue; // a class the taxonomy does not know: never emit it
      roles.push(role);
      perFamily.set(role.familyId, (perFamily.get(role.familyId) ?? 0) + 1);
    }
    if (roles.length === 0) throw new Error('the catalog has no class usable with this taxonomy');
    for (const role of roles) {
      const share = FAMILY_MIX[role.familyId]?.[0] ?? 2;
      weights.push(share / (perFamily.get(role.familyId) ?? 1));
    }
    let sum = 0;
    this.cumulative = Float64Array.from(weights, (w) => (sum += w));
    this.roles = roles;
  }

  private role(
    taxonomy: Taxonomy,
    classId: string,
    label: string,
    titles: readonly string[],
  ): Role | null {
    const subfamilyId = taxonomy.ancestorAt(classId, 'subfamily');
    const familyId = taxonomy.ancestorAt(classId, 'family');
    const domainId = taxonomy.ancestorAt(classId, 'domain');
    if (!taxonomy.isLevel(classId, 'class') || !subfamilyId || !familyId || !domainId) return null;
    const adjacent = ADJACENT_FAMILIES.has(familyId) || ADJACENT_SUBFAMILIES.has(subfamilyId);
    return {
      classId,
      subfamilyId,
      familyId,
      domainId,
      subfamilyLabel: taxonomy.get(subfamilyId)?.label ?? label,
      normalizedTitle: label.toLowerCase(),
      titles: titles.map((text) => ({
        text,
        level: levelInTitle(text),
        technologies: technologiesOf([text, label]),
      })),
      skillPool: subfamilyPool(subfamilyId),
      classification: adjacent ? 'technology_adjacent' : 'core_technology',
      payFactor: FAMILY_MIX[familyId]?.[1] ?? 1,
      leadership: familyId === 'technology_leadership',
    };
  }

  /** A class drawn by family share (binary search over the cumulative weights). */
  pick(rng: Rng): Role {
    const total = this.cumulative[this.cumulative.length - 1] ?? 0;
    const target = rng.float() * total;
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.cumulative[mid] ?? 0) > target) hi = mid;
      else lo = mid + 1;
    }
    return this.roles[lo] ?? (this.roles[0] as Role);
  }
}

// prettier-ignore
const IC_LEVELS: Weighted<Level> = [
  ['intern', 1], ['junior', 8], ['mid', 24], ['senior', 36], ['lead', 8], ['staff', 4],
  ['principal', 3], ['unknown', 16],
];
const MANAGER_LEVELS: Weighted<Level> = [
  ['lead', 40],
  ['senior', 25],
  ['unknown', 35],
];

/** Seniority prefixes and suffixes as postings write them; `{t}` is the base title. */
const DECORATIONS: Readonly<Partial<Record<Level, readonly string[]>>> = {
  intern: ['{t} Intern', 'Intern - {t}'],
  junior: ['Junior {t}', 'Jr. {t}', 'Entry Level {t}', '{t} I'],
  mid: ['{t} II', 'Mid-Level {t}'],
  senior: ['Senior {t}', 'Sr. {t}', 'Senior {t}', '{t} III'],
  lead: ['Lead {t}', '{t} Lead'],
  staff: ['Staff {t}'],
  principal: ['Principal {t}'],
};

export interface LeveledTitle {
  title: string;
  level: Level;
  /** True when the title itself states the level (evidence can then quote it as explicit). */
  stated: boolean;
  technologies: readonly string[];
}

/** A title from the class, and a level consistent with it. */
export function drawTitle(rng: Rng, role: Role): LeveledTitle {
  const option = rng.pick(role.titles);
  const { technologies } = option;
  if (option.level) return { title: option.text, level: option.level, stated: true, technologies };
  const level = rng.weighted(role.leadership ? MANAGER_LEVELS : IC_LEVELS);
  const forms = DECORATIONS[level];
  // Most postings put the seniority in the title, mid-level ones rarely do.
  const decorate = forms !== undefined && rng.chance(level === 'mid' ? 0.25 : 0.7);
  if (!decorate) return { title: option.text, level, stated: false, technologies };
  // "Data Engineer (Python/SQL) II" reads wrong: roman suffixes only on plain titles.
  const usable = option.text.includes('(') ? forms.filter((f) => f.endsWith('{t}')) : forms;
  const form = usable.length > 0 ? rng.pick(usable) : '{t}';
  return { title: form.replace('{t}', option.text), level, stated: true, technologies };
}
