import { randomUUID } from 'node:crypto';
import type { Account, Plan, PlanId } from '../domain/account';
import {
  DISPLAY_PREFIX_LENGTH,
  generateApiKey,
  hashApiKey,
  type ApiKeyRecord,
  type KeyLookup,
  type KeyWithAccount,
} from './api-key-repo';

// Accounts and keys in process memory: the fast suite's stand-in for the accounts and
// api_keys tables, serving the key lookup of authentication and the accounts the in-memory meter
// bills. Keys are kept by hash, as in Postgres: the secret is returned once, at creation.

/** The plans of migrations/003_accounts_and_keys.sql (contract §15.1). */
export const PLANS: Readonly<Record<PlanId, Plan>> = {
  free: plan('free', 'Free', 1000, 'calendar_month', 2, 25),
  builder: plan('builder', 'Builder', 25000, 'billing_period', 10, 100),
  growth: plan('growth', 'Growth', 250000, 'billing_period', 20, 100),
  enterprise: plan('enterprise', 'Enterprise', null, 'billing_period', 50, 100),
};

function plan(
  id: PlanId,
  label: string,
  allowance: number | null,
  periodKind: Plan['period_kind'],
  rps: number,
  pageSize: number,
): Plan {
  return {
    id,
    label,
    opportunity_allowance: allowance,
    period_kind: periodKind,
    requests_per_second: rps,
    max_page_size: pageSize,
  };
}

/** An account's settable fields; the plan by id. New accounts start as the store's do: Free, active. */
export type MemoryAccountInput = Partial<Omit<Account, 'id' | 'plan' | 'created_at'>> & {
  plan?: PlanId;
};

export class MemoryAccounts implements KeyLookup {
  private readonly accounts = new Map<string, Account>();
  private readonly keys = new Map<string, { hash: string; record: ApiKeyRecord }>();

  createAccount(input: MemoryAccountInput = {}): Account {
    const account: Account = {
      id: randomUUID(),
      name: null,
      billing_model: 'plan',
      status: 'active',
      balance_millicents: 0,
      allowance_override: null,
      rps_override: null,
      page_size_override: null,
      period_start: null,
      period_end: null,
      created_at: new Date(),
      ...input,
      plan: PLANS[input.plan ?? 'free'],
    };
    this.accounts.set(account.id, account);
    return account;
  }

  updateAccount(id: string, patch: MemoryAccountInput): Account {
    const { plan: planId, ...rest } = patch;
    const account = { ...this.account(id), ...rest };
    if (planId) account.plan = PLANS[planId];
    this.accounts.set(id, account);
    return account;
  }

  has(id: string): boolean {
    return this.accounts.has(id);
  }

  /** The account, or a thrown Error: an unknown id is a broken invariant, as in the meter's SQL. */
  account(id: string): Account {
    const account = this.accounts.get(id);
    if (!account) throw new Error(`account ${id} not found`);
    return account;
  }

  /** Issues a key; the secret is returned here only. */
  createKey(
    accountId: string,
    limits: { allowance?: number | null; rps?: number | null; label?: string | null } = {},
  ): { key: string; record: ApiKeyRecord } {
    this.account(accountId);
    const key = generateApiKey();
    const record: ApiKeyRecord = {
      id: randomUUID(),
      account_id: accountId,
      label: limits.label ?? null,
      prefix: key.slice(0, DISPLAY_PREFIX_LENGTH),
      allowance: limits.allowance ?? null,
      rps: limits.rps ?? null,
      created_at: new Date(),
      last_used_at: null,
      revoked_at: null,
    };
    this.keys.set(record.id, { hash: hashApiKey(key), record });
    return { key, record };
  }

  revokeKey(keyId: string): void {
    const entry = this.keys.get(keyId);
    if (entry) entry.record = { ...entry.record, revoked_at: new Date() };
  }

  /** The key record by id (the meter checks a key's allowance and its account). */
  key(keyId: string): ApiKeyRecord | undefined {
    return this.keys.get(keyId)?.record;
  }

  async findByHash(keyHash: string): Promise<KeyWithAccount | null> {
    for (const { hash, record } of this.keys.values()) {
      if (hash === keyHash) return { key: record, account: this.account(record.account_id) };
    }
    return null;
  }

  async mayExist(keyHash: string): Promise<boolean> {
    return (await this.findByHash(keyHash)) !== null;
  }

  async touch(keyId: string): Promise<void> {
    const entry = this.keys.get(keyId);
    if (entry) entry.record = { ...entry.record, last_used_at: new Date() };
  }
}
