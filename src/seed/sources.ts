import type { Opportunity } from '../domain/record';
import type { OrganizationKind } from './organizations';
import type { Rng, Weighted } from './prng';
import { iso } from './timeline';

// Source provenance with URLs shaped like each site's real job URLs, so URL handling and
// per-source filters see realistic input. Applicant tracking systems carry the posting company's
// board slug; job boards and the freelance marketplace carry their own ids.

export type SourceId =
  | 'greenhouse'
  | 'lever'
  | 'workday'
  | 'ashby'
  | 'smartrecruiters'
  | 'linkedin'
  | 'indeed'
  | 'dice'
  | 'glassdoor'
  | 'upwork';

type Source = Opportunity['sources'][number];

const DIRECT_SOURCES: Weighted<SourceId> = [
  ['greenhouse', 25],
  ['workday', 25],
  ['lever', 15],
  ['ashby', 10],
  ['smartrecruiters', 10],
  ['linkedin', 8],
  ['indeed', 7],
];
const AGENCY_SOURCES: Weighted<SourceId> = [
  ['dice', 35],
  ['linkedin', 30],
  ['indeed', 20],
  ['smartrecruiters', 10],
  ['lever', 5],
];
const BOARD_SOURCES: Weighted<SourceId> = [
  ['linkedin', 40],
  ['indeed', 40],
  ['dice', 20],
];
/** Aggregators that re-list a posting first seen elsewhere. */
const MIRRORS: readonly SourceId[] = ['linkedin', 'indeed', 'glassdoor', 'dice'];
const INDEED_HOSTS: Readonly<Partial<Record<string, string>>> = { GB: 'uk', US: 'www' };

export interface SourceContext {
  kind: OrganizationKind;
  poster: string | null;
  title: string;
  city: string | null;
  country: string | null;
  firstSeenMs: number;
  nowMs: number;
}

export interface Provenance {
  sources: Source[];
  canonicalUrl: string | null;
  applicationUrl: string | null;
}

const slugs = new Map<string, string>();

/** URL slug: "Düsseldorf" -> "dusseldorf". Memoized: the same few thousand names recur. */
function slug(text: string): string {
  let out = slugs.get(text);
  if (out === undefined) {
    out = text
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '') // the accents NFKD split off
      .replace(/[^A-Za-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .toLowerCase();
    if (slugs.size > 50_000) slugs.clear();
    slugs.set(text, out);
  }
  return out;
}

interface Listing {
  externalId: string;
  url: string;
  applyUrl: string;
}

function listing(rng: Rng, source: SourceId, ctx: SourceContext): Listing {
  // Slugs are computed only by the sites whose URLs carry them (they were the hot spot).
  const board = (): string => slug(ctx.poster ?? 'careers');
  const compact = (): string => board().replace(/-/g, '');
  const titleSlug = (): string => slug(ctx.title).slice(0, 80);
  switch (source) {
    case 'greenhouse': {
      const id = rng.digits(7);
      const url = `https://job-boards.greenhouse.io/${compact()}/jobs/${id}`;
      return { externalId: id, url, applyUrl: `${url}#app` };
    }
    case 'lever': {
      const id = rng.uuid();
      const url = `https://jobs.lever.co/${board()}/${id}`;
      return { externalId: id, url, applyUrl: `${url}/apply` };
    }
    case 'workday': {
      const id = `R${rng.digits(6)}`;
      const host = `${compact().slice(0, 30)}.wd${rng.pick([1, 3, 5, 12])}.myworkdayjobs.com`;
      const url = `https://${host}/en-US/External/job/${slug(ctx.city ?? 'Remote')}/${titleSlug()}_${id}`;
      return { externalId: id, url, applyUrl: `${url}/apply` };
    }
    case 'ashby': {
      const id = rng.uuid();
      const url = `https://jobs.ashbyhq.com/${compact()}/${id}`;
      return { externalId: id, url, applyUrl: `${url}/application` };
    }
    case 'smartrecruiters': {
      const id = rng.digits(15);
      const url = `https://jobs.smartrecruiters.com/${compact()}/${id}-${titleSlug()}`;
      return { externalId: id, url, applyUrl: url };
    }
    case 'linkedin': {
      const id = rng.digits(10);
      const url = `https://www.linkedin.com/jobs/view/${id}/`;
      return { externalId: id, url, applyUrl: url };
    }
    case 'indeed': {
      const id = rng.hex(16);
      const host = INDEED_HOSTS[ctx.country ?? 'US'] ?? (ctx.country ?? 'www').toLowerCase();
      const url = `https://${host}.indeed.com/viewjob?jk=${id}`;
      return { externalId: id, url, applyUrl: url };
    }
    case 'dice': {
      const id = rng.uuid();
      const url = `https://www.dice.com/job-detail/${id}`;
      return { externalId: id, url, applyUrl: url };
    }
    case 'glassdoor': {
      const id = rng.digits(10);
      const url = `https://www.glassdoor.com/job-listing/${titleSlug()}?jl=${id}`;
      return { externalId: id, url, applyUrl: url };
    }
    case 'upwork': {
      const id = `~01${rng.hex(18)}`;
      const url = `https://www.upwork.com/jobs/${id}`;
      return {
        externalId: id,
        url,
        applyUrl: `https://www.upwork.com/ab/proposals/job/${id}/apply/`,
      };
    }
  }
}

function primarySource(rng: Rng, kind: OrganizationKind): SourceId {
  switch (kind) {
    case 'marketplace':
      return 'upwork';
    case 'direct':
      return rng.weighted(DIRECT_SOURCES);
    case 'confidential':
      return rng.weighted(BOARD_SOURCES);
    default:
      return rng.weighted(AGENCY_SOURCES);
  }
}

export function drawProvenance(rng: Rng, ctx: SourceContext): Provenance {
  const primary = primarySource(rng, ctx.kind);
  const main = listing(rng, primary, ctx);
  const sources: Source[] = [
    {
      source: primary,
      external_id: main.externalId,
      url: main.url,
      observed_at: iso(ctx.firstSeenMs),
    },
  ];
  // Marketplace jobs are not mirrored; other postings are re-listed by 0-2 aggregators, which the
  // service observed later than the original (never before first_seen).
  const mirrors =
    ctx.kind === 'marketplace'
      ? 0
      : rng.weighted([
          [0, 50],
          [1, 35],
          [2, 15],
        ] as const);
  const candidates = MIRRORS.filter((s) => s !== primary);
  for (const source of rng.sample(candidates, mirrors)) {
    const copy = listing(rng, source, ctx);
    const observed = ctx.firstSeenMs + Math.floor(rng.float() * (ctx.nowMs - ctx.firstSeenMs));
    sources.push({
      source,
      external_id: source === 'indeed' && rng.chance(0.1) ? null : copy.externalId,
      url: rng.chance(0.03) ? null : copy.url,
      observed_at: iso(Math.floor(observed / 1000) * 1000),
    });
  }
  return {
    sources,
    canonicalUrl: rng.chance(0.02) ? null : main.url,
    applicationUrl: rng.chance(0.04) ? null : main.applyUrl,
  };
}
