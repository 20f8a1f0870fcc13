import { createSecretKey, type KeyObject } from 'node:crypto';
import { CompactSign, compactVerify } from 'jose';
import type { CompactJWSHeaderParameters } from 'jose';
import { malformedCursor } from '../domain/errors';
import type { SearchAfter } from './query-builder';

export type { SearchAfter };

// Pagination cursor (contract §8.2): a compact JWS, HS256, whose protected
// header names the signing key (`kid`). The payload binds the filter digest, the account and the
// keyset position. Several keys verify (rotation); the first signs. Every defect is one error,
// malformed_cursor, so a client learns nothing about which check failed.

export interface CursorKey {
  kid: string;
  secret: string;
}

interface CursorPayload {
  v: 1;
  f: string;
  a: string;
  s: SearchAfter;
}

const MIN_SECRET_LENGTH = 32;
const MAX_TOKEN_LENGTH = 2048;
const encoder = new TextEncoder();

/**
 * Parses CURSOR_SIGNING_KEYS: "kid=secret,kid2=secret2"; the first pair signs. A secret may
 * contain '=' (split at the first one) but not ','. Surrounding whitespace of a pair is ignored.
 */
export function parseCursorKeys(envValue: string): CursorKey[] {
  const pairs = envValue
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  if (pairs.length === 0)
    throw new Error('CURSOR_SIGNING_KEYS: at least one kid=secret is required');
  const keys = pairs.map((pair, i) => {
    const at = pair.indexOf('=');
    const kid = at < 0 ? '' : pair.slice(0, at);
    const secret = at < 0 ? '' : pair.slice(at + 1);
    if (kid === '' || secret === '') {
      throw new Error('CURSOR_SIGNING_KEYS: each entry must be kid=secret');
    }
    // Named by position: a secret pasted without its kid= (base64 ends in =) reads as a kid.
    if (secret.length < MIN_SECRET_LENGTH) {
      throw new Error(
        `CURSOR_SIGNING_KEYS: the secret of entry ${i + 1} must be at least ${MIN_SECRET_LENGTH} characters`,
      );
    }
    return { kid, secret };
  });
  const kids = new Set(keys.map((k) => k.kid));
  if (kids.size < keys.length) throw new Error('CURSOR_SIGNING_KEYS: a kid is given twice');
  return keys;
}

/** [freshness, id] (or the change feed's [seq, since]), or relevance's [score, freshness, id]. */
function isPosition(s: unknown): s is SearchAfter {
  if (!Array.isArray(s)) return false;
  const id: unknown = s[s.length - 1];
  if (typeof id !== 'string' || id === '') return false;
  if (s.length === 2) return Number.isSafeInteger(s[0]);
  return s.length === 3 && Number.isFinite(s[0]) && Number.isSafeInteger(s[1]);
}

function isPayload(value: unknown): value is CursorPayload {
  if (typeof value !== 'object' || value === null) return false;
  const p = value as Record<string, unknown>;
  return p.v === 1 && typeof p.f === 'string' && typeof p.a === 'string' && isPosition(p.s);
}

export interface CursorBinding {
  filterDigest: string;
  accountId: string;
}

export class CursorCodec {
  // Key objects made once: given bytes, jose makes one per signature and per verification.
  private readonly signing: { kid: string; key: KeyObject };
  private readonly verifying: ReadonlyMap<string, KeyObject>;

  constructor(keys: readonly CursorKey[]) {
    const [first] = keys;
    if (!first) throw new Error('CURSOR_SIGNING_KEYS: at least one key is required');
    const map = new Map<string, KeyObject>();
    for (const { kid, secret } of keys) {
      if (secret.length < MIN_SECRET_LENGTH) {
        throw new Error(
          `cursor key ${kid}: the secret must be at least ${MIN_SECRET_LENGTH} characters`,
        );
      }
      if (map.has(kid)) throw new Error(`cursor key ${kid}: duplicate kid`);
      map.set(kid, createSecretKey(encoder.encode(secret))); // its UTF-8 bytes (contract §8.2)
    }
    this.verifying = map;
    this.signing = { kid: first.kid, key: map.get(first.kid) as KeyObject };
  }

  async encode(input: CursorBinding & { position: SearchAfter }): Promise<string> {
    const payload: CursorPayload = {
      v: 1,
      f: input.filterDigest,
      a: input.accountId,
      s: input.position,
    };
    return new CompactSign(encoder.encode(JSON.stringify(payload)))
      .setProtectedHeader({ alg: 'HS256', kid: this.signing.kid })
      .sign(this.signing.key);
  }

  /** The keyset position of a cursor issued for these filters and this account. */
  async decode(token: string, expected: CursorBinding): Promise<SearchAfter> {
    if (token.length > MAX_TOKEN_LENGTH || !isCanonicalCompact(token)) throw malformedCursor();
    let payload: unknown;
    try {
      const keyFor = (header: CompactJWSHeaderParameters): KeyObject => {
        const key = header.kid === undefined ? undefined : this.verifying.get(header.kid);
        if (!key) throw new Error('unknown kid');
        return key;
      };
      // algorithms pins HS256, so `none` and asymmetric algorithms fail before any key is used.
      const { payload: bytes } = await compactVerify(token, keyFor, { algorithms: ['HS256'] });
      payload = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    } catch {
      throw malformedCursor();
    }
    if (!isPayload(payload)) throw malformedCursor();
    // A cursor of other filters or another account is as invalid as a forged one (contract §8.3).
    if (payload.f !== expected.filterDigest || payload.a !== expected.accountId)
      throw malformedCursor();
    return [...payload.s] as SearchAfter;
  }
}

/**
 * A compact JWS exactly as this codec writes it: three unpadded base64url segments, each the only
 * spelling of its bytes. Decoders ignore the bits a last character leaves over, padding and
 * surrounding spaces, so without this check altered cursors (the same bytes spelled otherwise)
 * would page like the one issued (contract §8.4: any cursor problem is malformed_cursor).
 */
function isCanonicalCompact(token: string): boolean {
  const segments = token.split('.');
  return (
    segments.length === 3 &&
    segments.every(
      (segment) =>
        BASE64URL.test(segment) &&
        Buffer.from(segment, 'base64url').toString('base64url') === segment,
    )
  );
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;
