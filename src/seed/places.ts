import type { Weighted } from './prng';

// Real places with their ISO 3166-2 subdivision codes, so that location filters (country, state by
// code or name, city) behave on seeded data as they will on real data.

export interface City {
  city: string;
  region: string;
  regionCode: string;
  /** How postings there write the place: "Austin, TX", "Munich, Germany", "Pune, Maharashtra, India". */
  text: string;
}

/** Which pay bases postings in a market typically quote (contract day rates in Europe, ...). */
export type PayMarket = 'north_america' | 'europe' | 'india';

export interface Country {
  code: string;
  name: string;
  currency: string;
  market: PayMarket;
  /** The short form used in "Remote (US)". */
  short: string;
  /** Multi-country remote regions a posting in this country may be open to ("Remote (EMEA)"). */
  remoteRegions: readonly string[];
  cities: readonly City[];
}

interface CountrySpec {
  code: string;
  name: string;
  currency: string;
  weight: number;
  /** "City/Region/Code; ..." kept compact on purpose: this is a data table. */
  cities: string;
}

const SPECS: readonly CountrySpec[] = [
  {
    code: 'US',
    name: 'United States',
    currency: 'USD',
    weight: 46,
    cities: `Austin/Texas/TX; Dallas/Texas/TX; Houston/Texas/TX; New York/New York/NY;
      San Francisco/California/CA; San Jose/California/CA; Los Angeles/California/CA;
      San Diego/California/CA; Seattle/Washington/WA; Chicago/Illinois/IL; Atlanta/Georgia/GA;
      Boston/Massachusetts/MA; Denver/Colorado/CO; Charlotte/North Carolina/NC;
      Raleigh/North Carolina/NC; Phoenix/Arizona/AZ; Minneapolis/Minnesota/MN; Columbus/Ohio/OH;
      Jersey City/New Jersey/NJ; Reston/Virginia/VA; McLean/Virginia/VA; Tampa/Florida/FL;
      Miami/Florida/FL; Salt Lake City/Utah/UT; Pittsburgh/Pennsylvania/PA;
      Philadelphia/Pennsylvania/PA; Nashville/Tennessee/TN; Detroit/Michigan/MI;
      Portland/Oregon/OR; Washington/District of Columbia/DC`,
  },
  {
    code: 'CA',
    name: 'Canada',
    currency: 'CAD',
    weight: 6,
    cities: `Toronto/Ontario/ON; Ottawa/Ontario/ON; Waterloo/Ontario/ON;
      Vancouver/British Columbia/BC; Montreal/Quebec/QC; Calgary/Alberta/AB`,
  },
  {
    code: 'GB',
    name: 'United Kingdom',
    currency: 'GBP',
    weight: 9,
    cities: `London/England/ENG; Manchester/England/ENG; Bristol/England/ENG; Leeds/England/ENG;
      Birmingham/England/ENG; Edinburgh/Scotland/SCT; Glasgow/Scotland/SCT; Cardiff/Wales/WLS;
      Belfast/Northern Ireland/NIR`,
  },
  {
    code: 'IE',
    name: 'Ireland',
    currency: 'EUR',
    weight: 2,
    cities: `Dublin/Leinster/L; Cork/Munster/M`,
  },
  {
    code: 'DE',
    name: 'Germany',
    currency: 'EUR',
    weight: 5,
    cities: `Berlin/Berlin/BE; Munich/Bavaria/BY; Hamburg/Hamburg/HH; Frankfurt/Hesse/HE;
      Stuttgart/Baden-Württemberg/BW; Cologne/North Rhine-Westphalia/NW;
      Düsseldorf/North Rhine-Westphalia/NW`,
  },
  {
    code: 'NL',
    name: 'Netherlands',
    currency: 'EUR',
    weight: 3,
    cities: `Amsterdam/North Holland/NH; Rotterdam/South Holland/ZH; The Hague/South Holland/ZH;
      Utrecht/Utrecht/UT; Eindhoven/North Brabant/NB`,
  },
  {
    code: 'FR',
    name: 'France',
    currency: 'EUR',
    weight: 3,
    cities: `Paris/Île-de-France/IDF; Lyon/Auvergne-Rhône-Alpes/ARA; Toulouse/Occitanie/OCC;
      Nantes/Pays de la Loire/PDL; Lille/Hauts-de-France/HDF`,
  },
  {
    code: 'ES',
    name: 'Spain',
    currency: 'EUR',
    weight: 2,
    cities: `Madrid/Community of Madrid/MD; Barcelona/Catalonia/CT; Valencia/Valencian Community/VC;
      Málaga/Andalusia/AN`,
  },
  {
    code: 'PL',
    name: 'Poland',
    currency: 'PLN',
    weight: 3,
    cities: `Warsaw/Masovian/MZ; Kraków/Lesser Poland/MA; Wrocław/Lower Silesian/DS;
      Gdańsk/Pomeranian/PM; Poznań/Greater Poland/WP`,
  },
  {
    code: 'CH',
    name: 'Switzerland',
    currency: 'CHF',
    weight: 1,
    cities: `Zurich/Zurich/ZH; Geneva/Geneva/GE; Basel/Basel-Stadt/BS`,
  },
  {
    code: 'SE',
    name: 'Sweden',
    currency: 'SEK',
    weight: 1,
    cities: `Stockholm/Stockholm County/AB; Gothenburg/Västra Götaland/O`,
  },
  {
    code: 'IN',
    name: 'India',
    currency: 'INR',
    weight: 9,
    cities: `Bengaluru/Karnataka/KA; Hyderabad/Telangana/TG; Pune/Maharashtra/MH;
      Mumbai/Maharashtra/MH; Chennai/Tamil Nadu/TN; Gurugram/Haryana/HR; Noida/Uttar Pradesh/UP;
      New Delhi/Delhi/DL`,
  },
  {
    code: 'AU',
    name: 'Australia',
    currency: 'AUD',
    weight: 4,
    cities: `Sydney/New South Wales/NSW; Melbourne/Victoria/VIC; Brisbane/Queensland/QLD;
      Perth/Western Australia/WA; Canberra/Australian Capital Territory/ACT`,
  },
  {
    code: 'MX',
    name: 'Mexico',
    currency: 'MXN',
    weight: 1,
    cities: `Mexico City/Mexico City/CMX; Guadalajara/Jalisco/JAL; Monterrey/Nuevo León/NLE`,
  },
];

const SHORT_NAMES: Readonly<Record<string, string>> = { US: 'US', GB: 'UK' };
const REMOTE_REGIONS: Readonly<Record<string, readonly string[]>> = {
  US: ['Americas', 'North America'],
  CA: ['North America'],
  MX: ['LATAM', 'Americas'],
  IN: ['APAC'],
  AU: ['APAC', 'ANZ'],
};
const EUROPE = ['Europe', 'EMEA', 'EU'];

function marketOf(code: string): PayMarket {
  if (code === 'IN') return 'india';
  return ['US', 'CA', 'AU', 'MX'].includes(code) ? 'north_america' : 'europe';
}

function parseCities(code: string, name: string, spec: string): City[] {
  return spec
    .split(';')
    .map((entry) => entry.trim())
    .map((entry) => {
      const [city = '', region = '', regionCode = ''] = entry.split('/');
      if (!city || !region || !regionCode) throw new Error(`bad city entry: ${entry}`);
      const text =
        code === 'IN'
          ? `${city}, ${region}, ${name}`
          : ['US', 'CA', 'AU'].includes(code)
            ? `${city}, ${regionCode}`
            : `${city}, ${name}`;
      return { city, region, regionCode, text };
    });
}

export const COUNTRIES: Weighted<Country> = SPECS.map((spec) => [
  {
    code: spec.code,
    name: spec.name,
    currency: spec.currency,
    market: marketOf(spec.code),
    short: SHORT_NAMES[spec.code] ?? spec.name,
    remoteRegions: REMOTE_REGIONS[spec.code] ?? EUROPE,
    cities: parseCities(spec.code, spec.name, spec.cities),
  },
  spec.weight,
]);
