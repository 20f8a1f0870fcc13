import { KEY_PREFIX } from '../domain/key-shape';
import { createHash, randomBytes } from 'node:crypto';
import type { Pool } from 'pg';
import {
  ACCOUNT_COLUMNS,
  AccountInputError,
  UnknownAccountError,
  isUuid,
  rowToAccount,
  type Account,
  type AccountRow,
} from './account-repo';
import type { KeyIndex } from './key-index';

// API keys (contract §14.2): shown once at creation, stored only as a hash, listed by
// prefix and label. Several per account; revoking one never creates a replacement.

// The shape of a key is the domain's (domain/key-shape.ts).
const KEY_RANDOM_CHARS = 40;
/** Listings show the first 12 characters of the key (contract §14.2). */
export const DISPLAY_PREFIX_LENGTH = 12;
const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A key as stored: never its secret nor its hash. */
export interface ApiKeyRecord {
  id: string;
  account_id: string;
  label: string | null;
  prefix: string;
  /** Optional per-key limits; the stricter of key and account applies (contract §15.4). */
  allowance: number | null;
  rps: number | null;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

export interface CreatedApiKey {
  id: string;
  account_id: string;
  /** The secret: returned here once and never again. */
  key: string;
  prefix: string;
  label: string | null;
  allowance: number | null;
  rps: number | null;
  created_at: Date;
}

/**
 * `oppk_` + 40 base62 characters (about 238 bits) from the CSPRNG. Rejection sampling keeps every
 * character uniform: bytes of 248 and above are dropped, because 248 = 4 × 62 and `byte % 62` over
 * 0..247 hits each character exactly four times (no modulo bias).
 */
export function generateApiKey(): string {
  let out = KEY_PREFIX;
  while (out.length < KEY_PREFIX.length + KEY_RANDOM_CHARS) {
    for (const byte of randomBytes(64)) {
      if (byte >= 248) continue;
      out += BASE62[byte % 62];
      if (out.length === KEY_PREFIX.length + KEY_RANDOM_CHARS) break;
    }
  }
  return out;
}

/**
 * SHA-256 hex. A fast unsalted hash is right here: keys are ~238 random bits, so there is nothing
 * to brute-force that a slow hash (bcrypt, scrypt) would protect, and a deterministic hash lets
 * the lookup be one indexed equality on api_keys.key_hash rather than a scan.
 */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

const KEY_COLUMNS = `k.id, k.account_id, k.label, k.prefix, k.allowance, k.rps, k.created_at,
  k.last_used_at, k.revoked_at`;

function checkLimit(name: string, value: number | null | undefined, min: number): void {
  if (value === undefined || value === null) return;
  if (!Number.isInteger(value) || value < min || value > 2_147_483_647) {
    throw new AccountInputError(`${name} must be an integer of at least ${min}`);
  }
}

export async function createApiKey(
  pool: Pool,
  input: {
    accountId: string;
    label?: string | null;
    allowance?: number | null;
    rps?: number | null;
  },
): Promise<CreatedApiKey> {
  if (!isUuid(input.accountId)) throw new AccountInputError(`no account ${input.accountId}`);
  checkLimit('allowance', input.allowance, 0);
  checkLimit('rps', input.rps, 1);
  const label = input.label?.trim() || null;
  if (label && label.length > 200) throw new AccountInputError('label is longer than 200');
  const key = generateApiKey();
  const prefix = key.slice(0, DISPLAY_PREFIX_LENGTH);
  try {
    const { rows } = await pool.query<ApiKeyRecord>(
      `INSERT INTO api_keys AS k (account_id, label, prefix, key_hash, allowance, rps)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${KEY_COLUMNS}`,
      [input.accountId, label, prefix, hashApiKey(key), input.allowance ?? null, input.rps ?? null],
    );
    const row = rows[0];
    if (!row) throw new Error('api key insert returned no row');
    return {
      id: row.id,
      account_id: row.account_id,
      key,
      prefix,
      label: row.label,
      allowance: row.allowance,
      rps: row.rps,
      created_at: row.created_at,
    };
  } catch (err) {
    // 23503: foreign key violation, i.e. the account does not exist.
    if ((err as { code?: string }).code === '23503') {
      throw new UnknownAccountError(`no account ${input.accountId}`);
    }
    throw err;
  }
}

/** Every key of the account, newest first, revoked ones included (they show revoked_at). */
export async function listApiKeys(pool: Pool, accountId: string): Promise<ApiKeyRecord[]> {
  if (!isUuid(accountId)) return [];
  const { rows } = await pool.query<ApiKeyRecord>(
    `SELECT ${KEY_COLUMNS} FROM api_keys k WHERE k.account_id = $1 ORDER BY k.created_at DESC, k.id`,
    [accountId],
  );
  return rows;
}

/**
 * Revokes a key; idempotent (a second call keeps the first time). Null when there is no such key.
 * Running processes stop accepting it within their auth cache TTL (service/auth.ts).
 */
export async function revokeApiKey(pool: Pool, keyId: string): Promise<Date | null> {
  if (!isUuid(keyId)) return null;
  const { rows } = await pool.query<{ revoked_at: Date }>(
    `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, now()) WHERE id = $1
     RETURNING revoked_at`,
    [keyId],
  );
  return rows[0]?.revoked_at ?? null;
}

export interface KeyWithAccount {
  key: ApiKeyRecord;
  account: Account;
}

/**
 * What authentication asks of the key store: Postgres here (pgKeyLookup), process
 * memory in the fast suite (store/memory-accounts.ts).
 */
export interface KeyLookup {
  /** The key with this hash and its account, or null. */
  findByHash(keyHash: string): Promise<KeyWithAccount | null>;
  /** Records that the key was used (the caller rate-limits the writes). */
  touch(keyId: string): Promise<void>;
  /**
   * Without a query (contract §14.5): true when a key with this hash may exist, false when none
   * does, undefined when that cannot be known now (store/key-index.ts). `waitMs`: how long a key
   * not known yet may take to arrive (its creation's notification on its way).
   */
  mayExist(keyHash: string, waitMs?: number): Promise<boolean | undefined>;
}

/** Postgres, with the process's key index in front (none: every lookup is budgeted). */
export function pgKeyLookup(pool: Pool, index?: KeyIndex): KeyLookup {
  return {
    findByHash: (keyHash) => findKeyByHash(pool, keyHash),
    touch: (keyId) => touchApiKey(pool, keyId),
    mayExist: (keyHash, waitMs) => index?.mayExist(keyHash, waitMs) ?? Promise.resolve(undefined),
  };
}

type KeyAccountRow = AccountRow & { [K in keyof ApiKeyRecord as `key_${K}`]: ApiKeyRecord[K] };

/**
 * The authentication lookup: one query on the unique index of key_hash, joined to its account and
 * plan. Prepared once per connection (named statement) because it runs on every request.
 */
export async function findKeyByHash(pool: Pool, keyHash: string): Promise<KeyWithAccount | null> {
  const { rows } = await pool.query<KeyAccountRow>({
    name: 'auth_find_key_by_hash',
    text: `SELECT k.id AS key_id, k.account_id AS key_account_id, k.label AS key_label,
        k.prefix AS key_prefix, k.allowance AS key_allowance, k.rps AS key_rps,
        k.created_at AS key_created_at, k.last_used_at AS key_last_used_at,
        k.revoked_at AS key_revoked_at, ${ACCOUNT_COLUMNS}
      FROM api_keys k JOIN accounts a ON a.id = k.account_id
      WHERE k.key_hash = $1`,
    values: [keyHash],
  });
  const row = rows[0];
  if (!row) return null;
  return {
    key: {
      id: row.key_id,
      account_id: row.key_account_id,
      label: row.key_label,
      prefix: row.key_prefix,
      allowance: row.key_allowance,
      rps: row.key_rps,
      created_at: row.key_created_at,
      last_used_at: row.key_last_used_at,
      revoked_at: row.key_revoked_at,
    },
    account: rowToAccount(row),
  };
}

/**
 * Records use, at most once a minute per key even across processes (the WHERE skips fresh rows).
 * Called off the request path by the authenticator.
 */
export async function touchApiKey(pool: Pool, keyId: string): Promise<void> {
  await pool.query(
    `UPDATE api_keys SET last_used_at = now()
     WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`,
    [keyId],
  );
}
