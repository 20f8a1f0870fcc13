-- Plans (contract §15.1), accounts (§15.2, §15.3) and API keys (§14.2).

CREATE TABLE plans (
  id                    text PRIMARY KEY CHECK (id IN ('free', 'builder', 'growth', 'enterprise')),
  label                 text NOT NULL,
  -- Unique canonical opportunities per period; NULL = account-specific (enterprise).
  opportunity_allowance integer CHECK (opportunity_allowance >= 0),
  -- 'calendar_month' = UTC calendar month; 'billing_period' = the account's stored period.
  period_kind           text NOT NULL CHECK (period_kind IN ('calendar_month', 'billing_period')),
  requests_per_second   integer NOT NULL CHECK (requests_per_second > 0),
  max_page_size         integer NOT NULL CHECK (max_page_size BETWEEN 1 AND 100)
);

INSERT INTO plans VALUES
  ('free',       'Free',       1000,   'calendar_month', 2,  25),
  ('builder',    'Builder',    25000,  'billing_period', 10, 100),
  ('growth',     'Growth',     250000, 'billing_period', 20, 100),
  -- Enterprise limits are account-specific: these defaults apply until overrides are set.
  ('enterprise', 'Enterprise', NULL,   'billing_period', 50, 100);

CREATE TABLE accounts (
  id                 uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name               text,
  plan_id            text NOT NULL DEFAULT 'free' REFERENCES plans (id),
  billing_model      text NOT NULL DEFAULT 'plan'
                     CHECK (billing_model IN ('plan', 'legacy_entitlement', 'legacy_wallet')),
  status             text NOT NULL DEFAULT 'active'
                     CHECK (status IN ('active', 'disabled', 'suspended', 'pending', 'expired')),
  balance_millicents bigint NOT NULL DEFAULT 0 CHECK (balance_millicents >= 0),
  allowance_override integer CHECK (allowance_override >= 0),
  rps_override       integer CHECK (rps_override > 0),
  page_size_override integer CHECK (page_size_override BETWEEN 1 AND 100),
  period_start       timestamptz,
  period_end         timestamptz,
  created_at         timestamptz NOT NULL DEFAULT now(),
  updated_at         timestamptz NOT NULL DEFAULT now(),
  CHECK ((period_start IS NULL) = (period_end IS NULL)),
  CHECK (period_start < period_end)
);

CREATE TABLE api_keys (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id   uuid NOT NULL REFERENCES accounts (id),
  label        text,
  -- The first 12 characters of the key, shown in listings; the key itself is never stored.
  prefix       text NOT NULL,
  key_hash     text NOT NULL UNIQUE,
  allowance    integer CHECK (allowance >= 0),
  rps          integer CHECK (rps > 0),
  created_at   timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  revoked_at   timestamptz
);
CREATE INDEX api_keys_account ON api_keys (account_id);
