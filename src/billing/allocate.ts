import { ApiError } from '../domain/errors';
import { PRICE_PER_OPPORTUNITY_MILLICENTS, type BillingModel } from './plans';

export interface Allocation {
  /** New opportunities covered by the included allowance. */
  included: number;
  /** New opportunities paid from the prepaid wallet. */
  payg: number;
  chargeMillicents: number;
}

/**
 * Splits a delivery's new opportunities between the included allowance and the wallet (contract
 * §16.3: included first, then 400 millicents each), or refuses the whole delivery (contract §16.4):
 * the caller has written nothing yet, so a throw leaves ledger and wallet untouched.
 */
export function allocate(input: {
  newCount: number;
  billingModel: BillingModel;
  /** From includedAvailable(): already net of this period's use and of the key's allowance. */
  includedAvailable: number;
  balanceMillicents: number;
}): Allocation {
  const included = Math.min(input.newCount, Math.max(0, input.includedAvailable));
  const payg = input.newCount - included;
  if (payg === 0) return { included, payg, chargeMillicents: 0 };
  if (input.billingModel === 'legacy_entitlement') {
    // contract §15.3: a legacy entitlement has no prepaid credit to fall back on.
    throw new ApiError(
      'opportunity_quota_exhausted',
      `This delivery needs ${opportunities(payg, 'more ')}than the entitlement has left this period.`,
    );
  }
  const chargeMillicents = payg * PRICE_PER_OPPORTUNITY_MILLICENTS;
  if (chargeMillicents > input.balanceMillicents) {
    throw new ApiError(
      'insufficient_balance',
      `This delivery needs ${chargeMillicents} millicents of prepaid credit for ` +
        // A legacy wallet has no included allowance to be beyond (contract §15.3).
        opportunities(payg, 'new ').trimEnd() +
        (input.billingModel === 'legacy_wallet' ? '' : ' beyond the included allowance') +
        `; the balance is ${input.balanceMillicents}.`,
    );
  }
  return { included, payg, chargeMillicents };
}

/** `3 new opportunities `, `1 new opportunity `: the count with its noun, and a space after. */
const opportunities = (count: number, adjective: string) =>
  `${count} ${adjective}${count === 1 ? 'opportunity' : 'opportunities'} `;
