import type { Opportunity } from '../domain/record';
import type { Rng } from './prng';

// Invented organizations. A staffing firm is not automatically the employer (contract §2.2), so the
// mix covers direct postings, agencies naming the employer, agencies with an undisclosed or merely
// named end client, marketplace clients and fully confidential postings.

const EMPLOYER_STEMS = `Northwind; Bluefin; Cedar Ridge; Ironwood; Lakeshore; Brightline; Harborlight;
  Granite Bay; Silverleaf; Redwood Coast; Oakhurst; Pinecrest; Clearpath; Evergreen Valley; Crescent;
  Beaconfield; Falconer; Aster; Juniper; Sapphire Bay; Tidewater; Cobalt; Kestrel; Larkspur; Halcyon;
  Vantagepoint; Riverbend; Stonegate; Copperleaf; Westbrook; Fairhaven; Highland Park; Marlow;
  Orchardview; Parkline; Trillium; Upland; Verity; Wildrose; Zephyr; Alder; Birchwood; Driftwood;
  Emberly; Foxglove; Glenmoor; Hollow Creek; Mosaic; Novalis; Quartzline; Solstice; Tamarack;
  Windward; Bellwether; Cinderford; Lumen; Arbor; Pioneer Ridge`;

const EMPLOYER_TRADES = `Health; Health Partners; Financial; Bank; Insurance; Mutual; Analytics;
  Logistics; Energy; Retail; Labs; Software; Technologies; Systems; Networks; Media; Biosciences;
  Capital; Manufacturing; Foods; Aerospace; Telecom; Pharma; Credit Union; Games; Robotics; Cloud;
  Digital; Mobility; Commerce; Education; Data; Security; Semiconductor; Automotive; Utilities`;

const STAFFING_FIRMS = `Brightpath Technical Staffing; Keystone IT Resources; Northgate Talent Partners;
  Bluestone Consulting Group; Clearwater Tech Staffing; Ironbridge Solutions;
  Summit Ridge Technology Partners; Trident Workforce Solutions; Pinnacle Point Staffing;
  Silverline IT Consulting; Harborview Talent; Redstone Technical Services; Crestline Recruiting;
  Lighthouse Tech Partners; Vectorline Talent Group; Anchorpoint IT Staffing; BlueRiver Consulting;
  Cobalt Hire; Greenfield Technical Resources; Horizonwide Talent Solutions; Sterling Bridge Staffing;
  Quantum Edge Consultants; Wavecrest Recruitment; Tallmast Technology Recruitment;
  Oakline Contract Solutions; Fernhill IT Partners; Granite Peak Staffing; Kingsbridge Interim;
  Lodestar Technical; Meadowbrook Talent`;

/** Legal-form suffixes by country; '' is a posting that omits it. */
const LEGAL_FORMS: Readonly<Partial<Record<string, readonly string[]>>> = {
  US: ['Inc.', 'LLC', 'Corp.', ''],
  CA: ['Inc.', 'Ltd.', ''],
  GB: ['Ltd', 'plc', ''],
  IE: ['Ltd', 'DAC', ''],
  DE: ['GmbH', 'AG', ''],
  NL: ['B.V.', 'N.V.', ''],
  FR: ['SAS', 'SA', ''],
  ES: ['S.L.', 'S.A.', ''],
  PL: ['Sp. z o.o.', 'S.A.', ''],
  CH: ['AG', 'GmbH', ''],
  SE: ['AB', ''],
  IN: ['Pvt Ltd', 'Ltd', ''],
  AU: ['Pty Ltd', ''],
  MX: ['S.A. de C.V.', ''],
};

const list = (spec: string): string[] => spec.split(';').map((s) => s.trim());

export type OrganizationKind =
  | 'direct'
  | 'agency_named_employer'
  | 'agency_undisclosed_client'
  | 'agency_named_client'
  | 'marketplace'
  | 'confidential';

export interface Organizations {
  kind: OrganizationKind;
  employer: string | null;
  intermediary: string | null;
  organizations: Opportunity['organizations'];
  /** The organization whose careers site or account published the posting, if any. */
  poster: string | null;
}

export class OrganizationPool {
  private readonly employers: string[];
  private readonly staffing = list(STAFFING_FIRMS);

  constructor(rng: Rng, size = 1200) {
    const combos: string[] = [];
    for (const stem of list(EMPLOYER_STEMS))
      for (const trade of list(EMPLOYER_TRADES)) combos.push(`${stem} ${trade}`);
    this.employers = rng.sample(combos, size);
  }

  /** A few organizations post a lot and most post little, as on real boards (index skew). */
  private skewed(rng: Rng, names: readonly string[], exponent: number): [string, number] {
    const index = Math.floor(names.length * rng.float() ** exponent);
    return [names[index] ?? '', index];
  }

  /** The same organization always gets the same legal form in a given country. */
  private named(base: string, index: number, country: string | null): string {
    const forms = LEGAL_FORMS[country ?? 'US'] ?? [''];
    const form = forms[index % forms.length] ?? '';
    return form ? `${base} ${form}` : base;
  }

  employer(rng: Rng, country: string | null): string {
    const [base, index] = this.skewed(rng, this.employers, 2.2);
    return this.named(base, index, country);
  }

  intermediary(rng: Rng, country: string | null): string {
    const [base, index] = this.skewed(rng, this.staffing, 1.6);
    return this.named(base, index, country);
  }

  draw(rng: Rng, country: string | null, marketplace: boolean): Organizations {
    if (marketplace) {
      // Marketplace clients are often anonymous; when named they are the client, not an employer.
      if (rng.chance(0.6)) return this.result('marketplace', null, null, [], null);
      const client = this.employer(rng, country);
      return this.result('marketplace', null, null, [{ name: client, role: 'client' }], null);
    }
    const roll = rng.float();
    if (roll < 0.55) {
      const employer = this.employer(rng, country);
      return this.result(
        'direct',
        employer,
        null,
        [{ name: employer, role: 'employer' }],
        employer,
      );
    }
    if (roll < 0.98) {
      const agency = this.intermediary(rng, country);
      const orgs: Opportunity['organizations'] = [{ name: agency, role: 'intermediary' }];
      if (roll < 0.75) {
        const employer = this.employer(rng, country);
        orgs.unshift({ name: employer, role: 'employer' });
        const poster = rng.chance(0.7) ? agency : employer;
        return this.result('agency_named_employer', employer, agency, orgs, poster);
      }
      if (roll < 0.92) return this.result('agency_undisclosed_client', null, agency, orgs, agency);
      // The end client is named, but who employs the contractor (agency W2, own corp) is not.
      orgs.push({ name: this.employer(rng, country), role: 'client' });
      return this.result('agency_named_client', null, agency, orgs, agency);
    }
    return this.result('confidential', null, null, [], null);
  }

  private result(
    kind: OrganizationKind,
    employer: string | null,
    intermediary: string | null,
    organizations: Opportunity['organizations'],
    poster: string | null,
  ): Organizations {
    return { kind, employer, intermediary, organizations, poster };
  }
}
