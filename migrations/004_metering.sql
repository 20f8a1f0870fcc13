-- Metering ledger (contract §16, §17). Every write happens in the meter's one transaction
-- per delivery, under the account row's lock (SELECT ... FOR UPDATE on accounts), so per-account
-- writers are serialised without a global lock.

-- One row per (account, period, opportunity): the first delivery in the period. The primary key is
-- what makes a repeat free (contract §16.1); charge_millicents is 0 (included) or 400 (prepaid).
CREATE TABLE metering_deliveries (
  account_id        uuid NOT NULL REFERENCES accounts (id),
  period_start      timestamptz NOT NULL,
  opportunity_id    uuid NOT NULL,
  key_id            uuid NOT NULL REFERENCES api_keys (id),
  request_id        text NOT NULL,
  charge_millicents integer NOT NULL CHECK (charge_millicents >= 0),
  delivered_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, period_start, opportunity_id)
);

-- Counters per account and period, kept in the same transaction as the deliveries they count, so
-- a usage read is one row and not a count over the period's deliveries.
-- used = included_used + payg_used = the period's rows in metering_deliveries.
CREATE TABLE metering_usage (
  account_id    uuid NOT NULL REFERENCES accounts (id),
  period_start  timestamptz NOT NULL,
  period_end    timestamptz NOT NULL,
  used          integer NOT NULL DEFAULT 0 CHECK (used >= 0),
  included_used integer NOT NULL DEFAULT 0 CHECK (included_used >= 0),
  payg_used     integer NOT NULL DEFAULT 0 CHECK (payg_used >= 0),
  updated_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, period_start),
  CHECK (used = included_used + payg_used),
  CHECK (period_start < period_end)
);

-- Included allowance a key has consumed in its account's period (contract §15.4: a key's own lower
-- allowance applies as well as the account's).
CREATE TABLE metering_key_usage (
  key_id        uuid NOT NULL REFERENCES api_keys (id),
  period_start  timestamptz NOT NULL,
  included_used integer NOT NULL DEFAULT 0 CHECK (included_used >= 0),
  PRIMARY KEY (key_id, period_start)
);

-- Spent X-Request-IDs (contract §17.4): remembered at least 7 days, then pruned by created_at.
CREATE TABLE metering_request_ids (
  account_id uuid NOT NULL REFERENCES accounts (id),
  request_id text NOT NULL CHECK (length(request_id) BETWEEN 1 AND 128),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, request_id)
);
CREATE INDEX metering_request_ids_created_at ON metering_request_ids (created_at);

-- Every change to a wallet balance, with the balance it left: the sum of the charges equals the
-- wallet's decrease, and each balance is auditable. amount_millicents is signed (a charge is
-- negative). Not unique per request id: an id may come back once it has been pruned (contract §17.4).
CREATE TABLE wallet_ledger (
  id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  account_id        uuid NOT NULL REFERENCES accounts (id),
  kind              text NOT NULL CHECK (kind IN ('charge', 'credit', 'adjustment')),
  request_id        text,
  amount_millicents bigint NOT NULL CHECK (amount_millicents <> 0),
  balance_after     bigint NOT NULL CHECK (balance_after >= 0),
  period_start      timestamptz,
  opportunity_count integer CHECK (opportunity_count > 0),
  created_at        timestamptz NOT NULL DEFAULT now(),
  CHECK (kind <> 'charge' OR (amount_millicents < 0 AND request_id IS NOT NULL))
);
CREATE INDEX wallet_ledger_account ON wallet_ledger (account_id, created_at);
