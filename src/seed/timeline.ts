import type { LivenessStatus, PUBLISHED_PRECISIONS } from '../domain/vocab';
import type { Rng } from './prng';

// When a posting was published, seen, changed and last verified, kept in the order the service
// guarantees: first_seen >= published_at (when known), changed_at >= first_seen, and
// last_verified_live_at >= first_seen. Nothing is later than `now`.

const SECOND = 1000;
const HOUR = 3600 * SECOND;
const DAY = 24 * HOUR;
/** How far back postings go. */
const WINDOW_DAYS = 180;

const TWO_DIGITS = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, '0'));
/** "YYYY-MM-DDT" per day number; records fall on a few hundred days, so this stays small. */
const dayPrefixes = new Map<number, string>();

/** ISO 8601 in UTC with a Z and whole seconds: "2026-10-14T13:22:05Z". */
export function iso(ms: number): string {
  // Hand-formatted because Date#toISOString dominated generation time (several calls a record).
  const day = Math.floor(ms / DAY);
  let prefix = dayPrefixes.get(day);
  if (prefix === undefined) {
    if (dayPrefixes.size > 100_000) dayPrefixes.clear();
    prefix = new Date(day * DAY).toISOString().slice(0, 11);
    dayPrefixes.set(day, prefix);
  }
  const seconds = Math.floor((ms - day * DAY) / SECOND);
  const h = TWO_DIGITS[Math.floor(seconds / 3600)];
  const m = TWO_DIGITS[Math.floor(seconds / 60) % 60];
  return `${prefix}${h}:${m}:${TWO_DIGITS[seconds % 60]}Z`;
}

export interface Timeline {
  publishedAt: string | null;
  publishedPrecision: (typeof PUBLISHED_PRECISIONS)[number];
  publishedMs: number | null;
  firstSeen: string;
  firstSeenMs: number;
  changedAt: string;
  lastVerifiedLiveAt: string | null;
  liveness: LivenessStatus;
}

const floorTo = (ms: number, unit: number): number => Math.floor(ms / unit) * unit;

/** Older postings are more often gone; the overall mix is roughly 70% live. */
function drawLiveness(rng: Rng, ageDays: number): LivenessStatus {
  const live = ageDays < 30 ? 0.88 : ageDays < 90 ? 0.72 : 0.55;
  const roll = rng.float();
  if (roll < live) return 'live';
  const rest = (roll - live) / (1 - live);
  if (rest < 0.45) return 'unknown';
  if (rest < 0.8) return 'dead';
  return 'blocked';
}

export function drawTimeline(rng: Rng, nowMs: number): Timeline {
  // Skewed towards recent: boards are dominated by fresh postings.
  const ageMs = WINDOW_DAYS * DAY * rng.float() ** 1.6;
  const ageDays = ageMs / DAY;
  let publishedMs: number | null = null;
  let precision: Timeline['publishedPrecision'] = 'unknown';
  let firstSeenMs: number;
  if (rng.chance(0.1)) {
    // No provider date: published_at stays null (never fabricated), only first_seen is known.
    firstSeenMs = floorTo(nowMs - ageMs, SECOND);
  } else {
    precision = rng.chance(0.7) ? 'second' : 'day';
    publishedMs = floorTo(nowMs - ageMs, precision === 'day' ? DAY : SECOND);
    // Discovery lags publication by minutes to a few days.
    const lag = 72 * HOUR * rng.float() ** 3;
    firstSeenMs = floorTo(Math.min(publishedMs + lag, nowMs), SECOND);
  }
  const span = nowMs - firstSeenMs;
  // Many records never change after discovery; the others change early more than late.
  const changedMs = rng.chance(0.4) ? firstSeenMs : firstSeenMs + span * rng.float() ** 2;
  const liveness = drawLiveness(rng, ageDays);
  return {
    publishedAt: publishedMs === null ? null : iso(publishedMs),
    publishedPrecision: precision,
    publishedMs,
    firstSeen: iso(firstSeenMs),
    firstSeenMs,
    changedAt: iso(floorTo(changedMs, SECOND)),
    lastVerifiedLiveAt: drawLastVerified(rng, liveness, firstSeenMs, nowMs),
    liveness,
  };
}

/** Live records were verified recently; dead and blocked ones, if ever, some time ago. */
function drawLastVerified(
  rng: Rng,
  liveness: LivenessStatus,
  firstSeenMs: number,
  nowMs: number,
): string | null {
  const span = nowMs - firstSeenMs;
  let ms: number;
  switch (liveness) {
    case 'live':
      if (rng.chance(0.05)) return null;
      ms = Math.max(firstSeenMs, nowMs - 3 * DAY * rng.float());
      break;
    case 'unknown':
      if (rng.chance(0.7)) return null;
      ms = firstSeenMs + span * rng.float() * 0.6;
      break;
    default: // dead, blocked: the last success before checks started failing
      if (rng.chance(0.4)) return null;
      ms = firstSeenMs + span * rng.float() * 0.8;
  }
  return iso(floorTo(ms, SECOND));
}
