import type { Rate } from '../domain/record';
import type { LEVELS, PayBasis, WorkStructure } from '../domain/vocab';
import type { PayMarket } from './places';
import type { Rng, Weighted } from './prng';

// Contract pay that looks like real postings: the unit follows the pay basis, magnitudes follow
// the currency and the unit, seniority moves the number, and a minority of postings quote only
// "from X" or "up to Y".

type RatedBasis = Exclude<PayBasis, 'unknown'>;
type Level = (typeof LEVELS)[number];

export const UNIT_OF_BASIS: Readonly<Record<RatedBasis, Rate['unit']>> = {
  hourly: 'hour',
  daily: 'day',
  monthly: 'month',
  annual: 'year',
  fixed_project: 'project',
};

type Range = readonly [low: number, high: number];
type Ranges = readonly [hourly: Range, daily: Range, monthly: Range, annual: Range, project: Range];
// prettier-ignore
const USD_RANGES: Ranges = [[45, 95], [400, 800], [7000, 15000], [95000, 170000], [800, 25000]];
/** Typical mid-level ranges per currency (see Ranges for the order). */
// prettier-ignore
const RANGES: Readonly<Partial<Record<string, Ranges>>> = {
  USD: USD_RANGES,
  CAD: [[50, 100], [450, 850], [8000, 15000], [90000, 150000], [1000, 25000]],
  GBP: [[35, 75], [350, 650], [5500, 11000], [55000, 100000], [600, 15000]],
  EUR: [[45, 95], [400, 800], [6000, 12000], [55000, 100000], [800, 20000]],
  INR: [[700, 2500], [5000, 18000], [90000, 300000], [900000, 3500000], [25000, 600000]],
  PLN: [[90, 220], [800, 1800], [15000, 35000], [150000, 350000], [3000, 60000]],
  AUD: [[70, 140], [650, 1200], [10000, 20000], [120000, 200000], [1000, 30000]],
  CHF: [[90, 160], [800, 1400], [12000, 22000], [120000, 200000], [2000, 40000]],
  SEK: [[600, 1200], [5000, 9500], [55000, 95000], [600000, 1100000], [10000, 250000]],
  MXN: [[250, 700], [2000, 5000], [35000, 95000], [420000, 1100000], [8000, 200000]],
};
const BASIS_INDEX: Readonly<Record<RatedBasis, number>> = {
  hourly: 0,
  daily: 1,
  monthly: 2,
  annual: 3,
  fixed_project: 4,
};

const LEVEL_FACTOR: Readonly<Record<Level, number>> = {
  intern: 0.4,
  junior: 0.65,
  mid: 0.9,
  senior: 1.1,
  lead: 1.2,
  staff: 1.3,
  principal: 1.4,
  director: 1.5,
  executive: 1.7,
  unknown: 1,
};

/** Which basis postings quote, by market; "worldwide" is remote work with no country. */
// prettier-ignore
const BASIS_BY_MARKET: Readonly<Record<PayMarket | 'worldwide', Weighted<RatedBasis>>> = {
  north_america: [['hourly', 78], ['annual', 6], ['daily', 3], ['monthly', 2], ['fixed_project', 4]],
  europe: [['daily', 55], ['hourly', 30], ['monthly', 6], ['annual', 5], ['fixed_project', 4]],
  india: [['monthly', 32], ['annual', 28], ['hourly', 30], ['daily', 4], ['fixed_project', 6]],
  worldwide: [['hourly', 60], ['fixed_project', 30], ['monthly', 10]],
};

export interface PayContext {
  currency: string;
  market: PayMarket | 'worldwide';
  workStructure: WorkStructure;
  level: Level;
  /** Relative pay of the job family (help desk < average < architecture). */
  familyFactor: number;
}

export interface Pay {
  rate: Rate | null;
  payBasis: PayBasis;
  isLowPay: boolean;
}

function drawBasis(rng: Rng, ctx: PayContext): RatedBasis {
  if (ctx.workStructure === 'fixed_project' && rng.chance(0.6)) return 'fixed_project';
  if (ctx.workStructure === 'freelance_ad_hoc') return rng.chance(0.6) ? 'hourly' : 'fixed_project';
  return rng.weighted(BASIS_BY_MARKET[ctx.market]);
}

/** Round like a human writing a rate: 87, 650, 7450, 126000. */
function roundRate(value: number): number {
  if (value < 100) return Math.max(1, Math.round(value));
  if (value < 1000) return Math.round(value / 5) * 5;
  const step = 10 ** (Math.floor(Math.log10(value)) - 2);
  return Math.round(value / step) * step;
}

export function drawPay(rng: Rng, ctx: PayContext): Pay {
  // "null does not mean zero pay": about a fifth of postings state no rate at all.
  if (rng.chance(0.2)) {
    const payBasis = rng.chance(0.85) ? 'unknown' : drawBasis(rng, ctx); // "hourly, DOE"
    return { rate: null, payBasis, isLowPay: false };
  }
  const basis = drawBasis(rng, ctx);
  const [low, high] = (RANGES[ctx.currency] ?? USD_RANGES)[BASIS_INDEX[basis]];
  const scale = basis === 'fixed_project' ? 1 : LEVEL_FACTOR[ctx.level] * ctx.familyFactor;
  // A small share of postings pay far below market; they are what is_low_pay is for. Their
  // centre stays low enough that even the widest max (x1.38) is under the 0.6 threshold.
  const centre = rng.chance(0.04)
    ? low * (0.25 + 0.15 * rng.float())
    : (low + rng.float() * (high - low)) * scale;
  const min = roundRate(centre);
  const max = roundRate(centre * (1.08 + 0.3 * rng.float()));
  const shape = rng.float();
  const rate: Rate = {
    min: shape < 0.85 ? min : null, // 15% "up to Y"
    max: shape < 0.7 || shape >= 0.85 ? max : null, // 15% "from X"
    currency: ctx.currency,
    unit: UNIT_OF_BASIS[basis],
  };
  const upper = rate.max ?? rate.min ?? 0;
  return { rate, payBasis: basis, isLowPay: upper < low * 0.6 };
}

const SYMBOL: Readonly<Record<string, string>> = {
  USD: '$',
  CAD: 'CA$',
  GBP: '£',
  EUR: '€',
  INR: '₹',
  AUD: 'A$',
  MXN: 'MX$',
};
const UNIT_TEXT: Readonly<Record<Rate['unit'], string>> = {
  hour: '/hr',
  day: '/day',
  month: '/month',
  year: '/year',
  project: ' fixed price',
};

function money(currency: string, amount: number): string {
  const digits = String(amount).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const symbol = SYMBOL[currency];
  return symbol ? `${symbol}${digits}` : `${digits} ${currency}`;
}

/** "$85-$95/hr", "up to £600/day", "from ₹120,000/month" style text for evidence excerpts. */
export function rateText(rate: Rate): string {
  const unit = UNIT_TEXT[rate.unit];
  if (rate.min !== null && rate.max !== null)
    return `${money(rate.currency, rate.min)}-${money(rate.currency, rate.max)}${unit}`;
  if (rate.min !== null) return `from ${money(rate.currency, rate.min)}${unit}`;
  return `up to ${money(rate.currency, rate.max ?? 0)}${unit}`;
}
