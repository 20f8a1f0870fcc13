import { Opportunity } from '../../src/domain/record';
import { ADVERSARIAL_TEXTS } from '../../src/seed/evidence';
import {
  DEFAULT_SEED_NOW,
  generateOpportunities,
  type GenerateOptions,
} from '../../src/seed/generate';
import { Rng } from '../../src/seed/prng';
import { iso } from '../../src/seed/timeline';
import { loadTaxonomyCatalog, taxonomyFromCatalog } from '../../src/domain/taxonomy/catalog';

const catalog = loadTaxonomyCatalog();
const taxonomy = taxonomyFromCatalog(catalog);
const generate = (count: number, seed: number, extra: Partial<GenerateOptions> = {}) => [
  ...generateOpportunities({ count, seed, taxonomy, catalog, ...extra }),
];

const records = generate(3000, 20261101);
const share = (predicate: (r: Opportunity) => boolean) =>
  records.filter(predicate).length / records.length;
const ms = (value: string) => Date.parse(value);
/**
 * The records that break a rule, each named with what is wrong: one assertion per rule over the
 * 3,000 records, which lists every offender. (An expect() per record and field made the timeline
 * test alone about 50,000 assertions and 2-5 s of CPU; the checks are the same.)
 */
function offenders(check: (r: Opportunity, fail: (what: string) => void) => void): string[] {
  const found: string[] = [];
  for (const r of records) check(r, (what) => found.push(`${r.id}: ${what}`));
  return found;
}

const UNIT_OF_BASIS: Record<string, string> = {
  hourly: 'hour',
  daily: 'day',
  monthly: 'month',
  annual: 'year',
  fixed_project: 'project',
};

describe('generateOpportunities: determinism', () => {
  it('gives identical output for the same seed', () => {
    expect(generate(300, 7)).toEqual(generate(300, 7));
  });

  it('gives different output for a different seed', () => {
    const a = generate(50, 7);
    const b = generate(50, 8);
    expect(a.map((r) => r.id)).not.toEqual(b.map((r) => r.id));
    expect(a.map((r) => r.title)).not.toEqual(b.map((r) => r.title));
  });

  it('starts a longer run with the records of a shorter one', () => {
    expect(generate(200, 3).slice(0, 100)).toEqual(generate(100, 3));
  });

  it('rejects a bad count or seed', () => {
    expect(() => generate(-1, 1)).toThrow(RangeError);
    expect(() => generate(1, 1.5)).toThrow(RangeError);
  });
});

describe('generateOpportunities: records', () => {
  it('all pass the public Opportunity schema', () => {
    for (const r of records) {
      const parsed = Opportunity.safeParse(r);
      if (!parsed.success) throw new Error(`${r.id}: ${parsed.error.message}`);
    }
  });

  it('have unique uuid v4 ids', () => {
    expect(new Set(records.map((r) => r.id)).size).toBe(records.length);
    const uuidV4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    expect(offenders((r, fail) => uuidV4.test(r.id) || fail('not a uuid v4'))).toEqual([]);
  });

  it('classify consistently with the taxonomy (the class ancestors), or not at all', () => {
    const wrong = offenders((r, fail) => {
      if (r.job_class === null) {
        if (r.job_domain !== null || r.job_family !== null || r.job_subfamily !== null)
          fail('no class, yet a domain, family or subfamily');
        if (r.technology_classification !== 'unknown') fail('no class, yet a classification');
        return;
      }
      if (!taxonomy.isLevel(r.job_class, 'class')) fail(`${r.job_class} is not a class`);
      for (const level of ['subfamily', 'family', 'domain'] as const) {
        const field = `job_${level}` as const;
        if (r[field] !== taxonomy.ancestorAt(r.job_class, level))
          fail(`${field} ${r[field]} is not the class's ${level}`);
      }
      if (r.normalized_title !== taxonomy.get(r.job_class)?.label.toLowerCase())
        fail(`normalized_title ${r.normalized_title} is not the class's label`);
      if (r.technology_classification === 'unknown') fail('a class, yet no classification');
    });
    expect(wrong).toEqual([]);
    const unclassified = share((r) => r.job_class === null);
    expect(unclassified).toBeGreaterThan(0.005);
    expect(unclassified).toBeLessThan(0.05);
  });

  it('keep organizations in agreement with employer and intermediary', () => {
    const wrong = offenders((r, fail) => {
      const named = (role: string) =>
        JSON.stringify(r.organizations.filter((o) => o.role === role).map((o) => o.name));
      if (named('employer') !== JSON.stringify(r.employer === null ? [] : [r.employer]))
        fail(`employer ${r.employer} against organizations ${named('employer')}`);
      if (named('intermediary') !== JSON.stringify(r.intermediary === null ? [] : [r.intermediary]))
        fail(`intermediary ${r.intermediary} against organizations ${named('intermediary')}`);
    });
    expect(wrong).toEqual([]);
    expect(share((r) => r.employer === null && r.intermediary !== null)).toBeGreaterThan(0.05);
    expect(share((r) => r.employer !== null && r.intermediary !== null)).toBeGreaterThan(0.05);
  });

  it('quote rates in a unit that matches the pay basis', () => {
    for (const r of records) {
      if (r.rate) expect(r.rate.unit).toBe(UNIT_OF_BASIS[r.pay_basis]);
      if (r.is_low_pay) expect(r.rate).not.toBeNull();
    }
    expect(share((r) => r.rate === null)).toBeGreaterThan(0.1);
    expect(share((r) => r.rate === null && r.pay_basis !== 'unknown')).toBeLessThan(0.06);
    expect(share((r) => r.is_low_pay)).toBeGreaterThan(0);
  });

  it('keep the timeline ordered, in UTC with Z, and before now', () => {
    const now = DEFAULT_SEED_NOW.getTime();
    // Written as !(a <= b): a stamp that does not parse (NaN) fails each comparison.
    const wrong = offenders((r, fail) => {
      const stamps = [r.published_at, r.first_seen, r.changed_at, r.last_verified_live_at];
      for (const s of [...stamps, ...r.sources.map((x) => x.observed_at)]) {
        if (s === null) continue;
        if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(s)) fail(`${s}: not UTC with Z`);
        if (!(ms(s) <= now)) fail(`${s}: after now`);
      }
      if (r.published_at !== null) {
        if (!(ms(r.first_seen) >= ms(r.published_at))) fail('first_seen before published_at');
        if (!(ms(r.published_at) > now - 181 * 86_400_000)) fail('published over 181 days ago');
        if (r.published_precision === 'day' && !/T00:00:00Z$/.test(r.published_at))
          fail(`${r.published_at}: a day's precision, not midnight`);
      }
      if (!(ms(r.changed_at) >= ms(r.first_seen))) fail('changed_at before first_seen');
      if (r.last_verified_live_at !== null && !(ms(r.last_verified_live_at) >= ms(r.first_seen)))
        fail('last_verified_live_at before first_seen');
      for (const s of r.sources)
        if (!(ms(s.observed_at) >= ms(r.first_seen)))
          fail(`${s.source} observed before first_seen`);
    });
    expect(wrong).toEqual([]);
  });

  it('honour a custom now', () => {
    const now = new Date('2025-03-15T12:00:00Z');
    for (const r of generate(200, 5, { now })) {
      expect(ms(r.changed_at)).toBeLessThanOrEqual(now.getTime());
      expect(ms(r.first_seen)).toBeGreaterThan(now.getTime() - 184 * 86_400_000);
    }
  });

  it('carry 1-4 evidence items, some with adversarial source text', () => {
    const wrong = offenders((r, fail) => {
      if (!(r.evidence.length >= 1 && r.evidence.length <= 4))
        fail(`${r.evidence.length} evidence items`);
      const ids = new Set(r.sources.map((s) => s.source));
      for (const e of r.evidence)
        if (e.source !== null && !ids.has(e.source))
          fail(`evidence from ${e.source}, not a source`);
    });
    expect(wrong).toEqual([]);
    const adversarial = share((r) =>
      r.evidence.some((e) => ADVERSARIAL_TEXTS.some((t) => e.excerpt.includes(t))),
    );
    expect(adversarial).toBeGreaterThan(0.002);
    expect(adversarial).toBeLessThan(0.02);
  });

  it('never share mutable objects between records or runs', () => {
    const first = generate(100, 11);
    const pristine = structuredClone(first);
    for (const r of first) {
      r.engagement_models.push('c2c');
      r.specializations.push('Mutated');
      r.organizations.push({ name: 'Mutated', role: 'unknown' });
      r.location.city = 'Mutated';
      if (r.duration) r.duration.text = 'Mutated';
      r.evidence.push({ field: 'x', value: null, strength: 'explicit', excerpt: '', source: null });
    }
    expect(generate(100, 11)).toEqual(pristine);
  });
});

describe('generateOpportunities: distributions', () => {
  it('look like a real contract market', () => {
    const currencies = new Set(records.flatMap((r) => (r.rate ? [r.rate.currency] : [])));
    expect(currencies.size).toBeGreaterThanOrEqual(5);
    expect(currencies).toEqual(expect.objectContaining(new Set(['USD', 'EUR', 'GBP', 'INR'])));
    expect(share((r) => r.published_at === null)).toBeGreaterThan(0.05);
    expect(share((r) => r.engagement_models.includes('c2c'))).toBeGreaterThan(0.05);
    expect(share((r) => r.engagement_models.length === 0)).toBeGreaterThan(0.05);
    expect(share((r) => r.liveness_status === 'live')).toBeGreaterThan(0.5);
    expect(share((r) => r.liveness_status === 'live')).toBeLessThan(0.9);
    expect(
      share((r) => r.work_structure === 'contract_duration' && r.duration !== null),
    ).toBeGreaterThan(0.2);
    expect(
      share((r) => r.location.remote === true && r.location.remote_scope === 'country'),
    ).toBeGreaterThan(0.1);
    expect(new Set(records.map((r) => r.location.country)).size).toBeGreaterThanOrEqual(10);
    expect(new Set(records.map((r) => r.job_family)).size).toBeGreaterThanOrEqual(15);
    expect(records.some((r) => r.job_subfamily === 'data_engineering')).toBe(true);
    for (const r of records.filter((x) => x.level === 'director' || x.level === 'executive'))
      expect(r.management_track).not.toBe('individual_contributor');
  });
});

describe('seed helpers', () => {
  it('iso() formats like Date#toISOString without milliseconds', () => {
    const rng = new Rng(99);
    for (let i = 0; i < 1000; i++) {
      const t = Math.floor(rng.float() * 4e12);
      expect(iso(t)).toBe(
        new Date(Math.floor(t / 1000) * 1000).toISOString().replace('.000Z', 'Z'),
      );
    }
  });

  it('Rng is reproducible and spreads nearby seeds apart', () => {
    const draw = (seed: number) => {
      const rng = new Rng(seed);
      return Array.from({ length: 5 }, () => rng.u32());
    };
    expect(draw(1)).toEqual(draw(1));
    expect(draw(1)).not.toEqual(draw(2));
    expect(draw(1)).not.toEqual(draw(1 + 2 ** 32));
  });
});
