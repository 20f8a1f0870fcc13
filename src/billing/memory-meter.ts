import { deliveredByIds } from '../domain/delivered-records';
import { accountBilling } from './account-limits';
import { allocate } from './allocate';
import {
  duplicateRequestId,
  lookUpThenDeliver,
  type RequestTicket,
  noDelivery,
  type RecordDelivery,
  type RecordFinder,
  type BillingSubject,
  type Metering,
  type PageDelivery,
  type PeriodDeliveries,
} from './metering';
import { cutPage, type PageRules } from './page-budget';
import { periodOf } from './period';

import { accountAllowance, includedAvailable } from './plans';
import {
  buildSnapshot,
  NO_USAGE,
  usageKey,
  type KeyUsage,
  type PeriodUsage,
  type UsageSnapshot,
  type UsageSubject,
} from './snapshot';
import type { MemoryAccounts } from '../store/memory-accounts';

/** One account's ledger for one period: who got what, and how it was paid. */
interface PeriodLedger {
  /** Delivered ids in delivery order (unseen_only and new_count exclude them). */
  ids: string[];
  delivered: Set<string>;
  usage: PeriodUsage;
  /** Included opportunities per key (a key's own allowance, contract §15.4). */
  keyIncluded: Map<string, number>;
}

/**
 * The meter's rules in process memory, for the fast suite: request ids spent once per
 * account (409), ids new this period delivered once, included allowance first (account and key),
 * then the wallet at 400 millicents each, or the whole delivery refused (402) with nothing
 * recorded; legacy models as contract §15.3. The same pure rules as PgMeter (allocate, cutPage,
 * currentPeriod, buildSnapshot); only the ledger is an object instead of tables. Single-threaded
 * JavaScript makes each call atomic, which the account lock does for Postgres.
 */
export class MemoryMeter implements Metering {
  private readonly spent = new Map<string, Set<string>>();
  private readonly ledgers = new Map<string, PeriodLedger>();
  private readonly now: () => Date;

  constructor(
    private readonly accounts: MemoryAccounts,
    options: { now?: () => Date } = {},
  ) {
    this.now = options.now ?? (() => new Date());
  }

  async spendRequestId(subject: BillingSubject, ticket: RequestTicket): Promise<void> {
    if (ticket.spent) return;
    const spent = this.spent.get(subject.accountId) ?? new Set<string>();
    this.spent.set(subject.accountId, spent);
    ticket.spent = true;
    if (spent.has(ticket.id)) throw duplicateRequestId();
    spent.add(ticket.id);
  }

  deliverRecord(
    subject: BillingSubject,
    ticket: RequestTicket,
    id: string,
    find: RecordFinder,
  ): Promise<RecordDelivery | null> {
    return lookUpThenDeliver(this, subject, ticket, id, find);
  }

  async deliver(
    subject: BillingSubject,
    ticket: RequestTicket,
    opportunityIds: readonly string[],
    rules: PageRules = {},
  ): Promise<PageDelivery> {
    // A ticket is spent with its delivery, and stays spent when the page is refused with 402.
    await this.spendRequestId(subject, ticket);
    const { billing, period, ledger } = this.current(subject.accountId);
    const key = this.accounts.key(subject.keyId);
    if (key?.account_id !== subject.accountId)
      throw new Error(`key ${subject.keyId} is not of account ${subject.accountId}`);
    const fresh = new Set(opportunityIds.filter((id) => !ledger.delivered.has(id)));
    const cut = cutPage(opportunityIds, fresh, rules);
    const keyUsage = () => keyUsageOf(ledger, key.id, key.allowance);
    if (cut.newIds.length === 0)
      return noDelivery(buildSnapshot(billing, period, ledger.usage, keyUsage()), cut);

    // Throws 402 before anything below is written (contract §16.4).
    const allocation = allocate({
      newCount: cut.newIds.length,
      billingModel: billing.settings.billingModel,
      includedAvailable: includedAvailable({
        accountAllowance: accountAllowance(billing.plan, billing.settings).allowance,
        accountIncludedUsed: ledger.usage.includedUsed,
        keyAllowance: key.allowance,
        keyIncludedUsed: ledger.keyIncluded.get(key.id) ?? 0,
      }),
      balanceMillicents: billing.balanceMillicents,
    });
    for (const id of cut.newIds) {
      ledger.ids.push(id);
      ledger.delivered.add(id);
    }
    ledger.usage = {
      used: ledger.usage.used + cut.newIds.length,
      includedUsed: ledger.usage.includedUsed + allocation.included,
      paygUsed: ledger.usage.paygUsed + allocation.payg,
    };
    ledger.keyIncluded.set(key.id, (ledger.keyIncluded.get(key.id) ?? 0) + allocation.included);
    const balance = billing.balanceMillicents - allocation.chargeMillicents;
    this.accounts.updateAccount(subject.accountId, { balance_millicents: balance });
    return {
      newCount: cut.newIds.length,
      includedNewCount: allocation.included,
      paygNewCount: allocation.payg,
      chargeMillicents: allocation.chargeMillicents,
      usage: buildSnapshot(
        { ...billing, balanceMillicents: balance },
        period,
        ledger.usage,
        keyUsage(),
      ),
      servedIds: cut.served,
      consumed: cut.consumed,
    };
  }

  async periodDeliveries(subject: BillingSubject): Promise<PeriodDeliveries> {
    const { billing, ledger } = this.current(subject.accountId);
    const key = this.accounts.key(subject.keyId);
    return {
      billingModel: billing.settings.billingModel,
      delivered: deliveredByIds(ledger.ids),
      includedAvailable: includedAvailable({
        accountAllowance: accountAllowance(billing.plan, billing.settings).allowance,
        accountIncludedUsed: ledger.usage.includedUsed,
        keyAllowance: key?.allowance ?? null,
        keyIncludedUsed: ledger.keyIncluded.get(subject.keyId) ?? 0,
      }),
    };
  }

  async snapshot(subject: UsageSubject): Promise<UsageSnapshot> {
    const { billing, period, ledger } = this.current(subject.accountId);
    // A key of another account (or none any more) is read as the account, as Postgres does.
    const key = subject.keyId === undefined ? undefined : this.accounts.key(subject.keyId);
    const own = key?.account_id === subject.accountId ? key : undefined;
    const keyUsage = own ? keyUsageOf(ledger, own.id, own.allowance) : null;
    return buildSnapshot(billing, period, ledger.usage, keyUsage);
  }

  async snapshots(
    subjects: readonly (string | UsageSubject)[],
  ): Promise<ReadonlyMap<string, UsageSnapshot>> {
    const found = new Map<string, UsageSnapshot>();
    for (const who of subjects) {
      const subject = typeof who === 'string' ? { accountId: who } : who;
      if (this.accounts.has(subject.accountId))
        found.set(usageKey(who), await this.snapshot(subject));
    }
    return found;
  }

  async deliveredPrefix(
    accountId: string,
    periodStart: Date,
    ids: readonly string[],
  ): Promise<number> {
    const ledger = this.ledgers.get(ledgerKey(accountId, periodStart));
    const first = ids.findIndex((id) => ledger?.delivered.has(id) !== true);
    return first < 0 ? ids.length : first;
  }

  /** The account's billing columns, its current period and that period's ledger. */
  private current(accountId: string) {
    const billing = accountBilling(this.accounts.account(accountId));
    const period = periodOf(billing, this.now());
    const key = ledgerKey(accountId, period.start);
    let ledger = this.ledgers.get(key);
    if (!ledger) {
      ledger = { ids: [], delivered: new Set(), usage: NO_USAGE, keyIncluded: new Map() };
      this.ledgers.set(key, ledger);
    }
    return { billing, period, ledger };
  }
}

/** A key's own allowance and what its ledger gave it included this period. */
const keyUsageOf = (ledger: PeriodLedger, keyId: string, allowance: number | null): KeyUsage => ({
  keyId,
  allowance,
  includedUsed: ledger.keyIncluded.get(keyId) ?? 0,
});

const ledgerKey = (accountId: string, periodStart: Date) =>
  `${accountId}|${periodStart.toISOString()}`;
