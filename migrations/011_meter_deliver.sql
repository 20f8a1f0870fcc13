-- A charged page in ONE round trip (contract §16.3, §16.4, §16.7, §17.2, §17.3):
-- src/billing/pg-meter.ts sends meter_deliver() instead of its two round trips (READ_PAGE, then
-- meter_charge in a transaction) when the page has no cut rules (no max_new, no unseen_only) and the
-- process already holds the account's billing state from an earlier READ_PAGE. That state decides
-- the period, the allowance and the billing model the process passes in; it is checked here first,
-- by its fingerprint, so a process never charges under a state an admin has since changed.

-- The fingerprint of what an account's charge depends on besides its wallet: the plan (its
-- allowance and period kind; the plans table is reference data that only a migration writes, and a
-- deploy starts processes with nothing cached), the billing model, the status, the allowance
-- override and the stored billing period. NOT the balance, which meter_charge reads under its lock.
-- One definition for both sides: READ_PAGE (billing/ledger-sql.ts) computes it beside the account it
-- reads, meter_deliver below compares it with the account as it is now. Epoch seconds, not the
-- timestamps' text, so that the session's TimeZone and DateStyle cannot change it. STABLE, not
-- IMMUTABLE, because concat_ws and extract are: declared IMMUTABLE, the planner would not inline
-- it, and READ_PAGE would run it through the SQL-function executor on every call (about 0.1 ms of
-- Postgres per page; EXPLAIN VERBOSE of READ_PAGE shows the md5 expression when it is inlined).
CREATE FUNCTION meter_billing_fingerprint(
  p_plan text,
  p_billing_model text,
  p_status text,
  p_allowance_override integer,
  p_period_start timestamptz,
  p_period_end timestamptz
) RETURNS text LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT md5(concat_ws('|', p_plan, p_billing_model, p_status,
                       coalesce(p_allowance_override::text, '-'),
                       coalesce(extract(epoch FROM p_period_start)::text, '-'),
                       coalesce(extract(epoch FROM p_period_end)::text, '-')))
$$;

-- Called as ONE autocommitted statement (a prepared one: planned once per connection), so the
-- transaction is the statement. In order:
-- 1. The account's fingerprint now is compared with the caller's (p_fingerprint). Another one (or
--    no account): outcome 'stale', nothing written, the request id not spent; the caller takes its
--    two-round-trip path, which reads the account again.
-- 2. When p_spend, the request id is spent; spent before: outcome 'duplicate_request_id', nothing
--    else written (→ 409).
-- 3. meter_charge (migration 008, called, not copied) with ALL the page's ids as candidates: its
--    ON CONFLICT decides which are new, and it answers everything the response's headers need
--    (usage, balance, the recorded ids in page order), or a refusal with nothing recorded (→ 402,
--    the request id spent).
-- The commit is asynchronous, as READ_PAGE's and the charge's are; the caller makes it durable
-- (a shared WAL flush, store/group-flush.ts) before it answers a page that recorded or refused
-- anything. Lock waits are bounded by p_lock_timeout_ms (statement_timeout is the connection's).
CREATE FUNCTION meter_deliver(
  p_account uuid,
  p_key uuid,
  p_fingerprint text,
  p_period_start timestamptz,
  p_period_end timestamptz,
  p_ids uuid[],
  p_request_id text,
  p_spend boolean,
  p_account_allowance integer,
  p_billing_model text,
  p_price integer,
  p_lock_timeout_ms integer
) RETURNS TABLE (
  outcome text,
  new_ids uuid[],
  included integer,
  payg integer,
  charge bigint,
  used integer,
  included_used integer,
  payg_used integer,
  balance bigint,
  included_available integer
) LANGUAGE plpgsql AS $$
DECLARE
  v_fingerprint text;
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true);
  PERFORM set_config('lock_timeout', p_lock_timeout_ms::text, true);

  SELECT meter_billing_fingerprint(a.plan_id, a.billing_model, a.status, a.allowance_override,
                                   a.period_start, a.period_end)
    INTO v_fingerprint
    FROM accounts a WHERE a.id = p_account;
  IF v_fingerprint IS DISTINCT FROM p_fingerprint THEN
    outcome := 'stale';
    RETURN NEXT;
    RETURN;
  END IF;

  IF p_spend THEN
    INSERT INTO metering_request_ids (account_id, request_id) VALUES (p_account, p_request_id)
    ON CONFLICT (account_id, request_id) DO NOTHING;
    IF NOT FOUND THEN
      outcome := 'duplicate_request_id';
      RETURN NEXT;
      RETURN;
    END IF;
  END IF;

  RETURN QUERY SELECT * FROM meter_charge(p_account, p_key, p_period_start, p_period_end, p_ids,
                                          p_request_id, p_account_allowance, p_billing_model,
                                          p_price);
END;
$$;
