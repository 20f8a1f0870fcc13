import type { Location } from '../domain/record';
import { COUNTRIES, type Country } from './places';
import type { Rng } from './prng';

// Locations as postings state them. remote=true is usually limited to a country or region, rarely
// worldwide (contract §2.6: remote does not mean worldwide), and some postings say nothing at all.

export interface Place {
  location: Location;
  /** The market the posting belongs to (currency, legal forms), even when location.country is null. */
  market: Country | null;
  /** Region-scoped remote: the area it is open to ("EMEA", "California"). */
  remoteArea: string | null;
  hybrid: boolean;
}

const UNKNOWN: Location = {
  text: null,
  city: null,
  region: null,
  region_code: null,
  country: null,
  remote: null,
  remote_scope: 'unknown',
};

const place = (
  location: Location,
  market: Country | null,
  remoteArea: string | null = null,
  hybrid = false,
): Place => ({
  location,
  market,
  remoteArea,
  hybrid,
});

function remoteIn(rng: Rng, country: Country): Place {
  const roll = rng.float();
  if (roll < 0.6) {
    const text = rng.chance(0.7) ? `Remote (${country.short})` : `Remote - ${country.name}`;
    return place(
      { ...UNKNOWN, text, country: country.code, remote: true, remote_scope: 'country' },
      country,
    );
  }
  if (roll < 0.75) {
    if (rng.chance(0.5)) {
      // Sub-national: "Remote (Texas residents only)".
      const c = rng.pick(country.cities);
      const loc: Location = {
        ...UNKNOWN,
        text: `Remote (${c.region} residents only)`,
        region: c.region,
        region_code: c.regionCode,
        country: country.code,
        remote: true,
        remote_scope: 'region',
      };
      return place(loc, country, c.region);
    }
    const area = rng.pick(country.remoteRegions);
    return place(
      { ...UNKNOWN, text: `Remote (${area})`, remote: true, remote_scope: 'region' },
      country,
      area,
    );
  }
  if (roll < 0.85) {
    const text = rng.chance(0.5) ? 'Remote (Worldwide)' : 'Anywhere';
    return place({ ...UNKNOWN, text, remote: true, remote_scope: 'worldwide' }, null);
  }
  // "Remote" and nothing else: no supported scope.
  return place({ ...UNKNOWN, text: 'Remote', remote: true }, country);
}

export function drawPlace(rng: Rng, marketplace: boolean): Place {
  const country = rng.weighted(COUNTRIES);
  if (marketplace) {
    if (rng.chance(0.7))
      return place(
        { ...UNKNOWN, text: 'Worldwide', remote: true, remote_scope: 'worldwide' },
        null,
      );
    return remoteIn(rng, country);
  }
  if (rng.chance(0.03)) return place({ ...UNKNOWN }, country); // a copy: records never share mutable objects
  const mode = rng.float();
  if (mode < 0.4) return remoteIn(rng, country);
  const c = rng.pick(country.cities);
  const hybrid = mode < 0.55;
  const located: Location = {
    text: hybrid ? `${c.text} (Hybrid)` : c.text,
    city: c.city,
    region: c.region,
    region_code: c.regionCode,
    country: country.code,
    // Hybrid and onsite are not remote; a bare city says nothing either way.
    remote: mode < 0.8 ? false : null,
    remote_scope: 'unknown',
  };
  return place(located, country, null, hybrid);
}
