-- One account's one-round-trip calls charged together in ONE statement (meter_deliver_many, below;
-- src/billing/pg-meter.ts sends the calls of an account that arrive while its previous statement
-- runs), and the lock order that makes that safe.
--
-- The order every charge of an account takes its locks in, from now on:
--   1. the request ids it spends (several in one statement: in id order);
--   2. the period's counters' row (metering_usage), held to the commit;
--   3. its delivery rows (metering_deliveries, in id order);
--   4. the key's counters' row, then the wallet (the account's row).
-- meter_charge (migration 008) took 3 before 2: it inserted the page's rows, and only then waited
-- for the counters. A statement charging several calls holds the counters from its first call on
-- while it inserts the next call's rows; with 3 before 2 a concurrent charge that had inserted one
-- of those ids waited for the counters the statement held, while the statement waited for that
-- row: a deadlock, which Postgres broke after deadlock_timeout by failing one of them (503). With
-- the counters first, whoever holds uncommitted delivery rows of the account holds its counters,
-- so a charge that waits for such a row never holds what that row's owner waits for. The cost: the
-- page's row inserts are now inside the serialised part, and a page of repeats takes the lock too
-- (a page the process knows delivered never gets here: billing/known-delivered.ts).

CREATE OR REPLACE FUNCTION meter_charge(
  p_account uuid,
  p_key uuid,
  p_period_start timestamptz,
  p_period_end timestamptz,
  p_ids uuid[],
  p_request_id text,
  p_account_allowance integer,
  p_billing_model text,
  p_price integer
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
  v_key_allowance integer;
  v_key_found boolean;
  v_inserted uuid[];
  v_n integer;
  v_acc_included integer;
  v_key_included integer := 0;
  v_available integer;
  v_balance bigint;
  v_created_usage boolean := false;
  v_created_key_usage boolean := false;
BEGIN
  SELECT true, k.allowance INTO v_key_found, v_key_allowance
    FROM api_keys k WHERE k.id = p_key AND k.account_id = p_account;
  IF v_key_found IS NULL THEN
    outcome := 'key_not_found';
    RETURN NEXT;
    RETURN;
  END IF;

  -- Step 1, serialised per account from here to the commit: the period's counters, locked before
  -- any row is written (see the top of migration 012). The period's first charge creates their
  -- row; one created here and then refused (or left unused) is deleted again below, so a refusal
  -- leaves every row as it was. No candidate at all (a detail whose record is gone): no lock.
  LOOP
    EXIT WHEN cardinality(p_ids) = 0;
    SELECT u.included_used INTO v_acc_included FROM metering_usage u
     WHERE u.account_id = p_account AND u.period_start = p_period_start FOR UPDATE;
    EXIT WHEN FOUND;
    INSERT INTO metering_usage AS u (account_id, period_start, period_end)
    VALUES (p_account, p_period_start, p_period_end)
    ON CONFLICT (account_id, period_start) DO NOTHING
    RETURNING u.included_used INTO v_acc_included;
    v_created_usage := FOUND;
    EXIT WHEN FOUND;
  END LOOP;

  -- Step 2: the rows, in id order, ON CONFLICT DO NOTHING: the primary key decides which ids are
  -- new; the charge is set below once decided.
  WITH ins AS (
    INSERT INTO metering_deliveries
      (account_id, period_start, opportunity_id, key_id, request_id, charge_millicents)
    SELECT p_account, p_period_start, t.id, p_key, p_request_id, 0
      FROM (SELECT DISTINCT u.id FROM unnest(p_ids) AS u(id)) AS t
     ORDER BY t.id
    ON CONFLICT DO NOTHING
    RETURNING opportunity_id
  )
  SELECT coalesce(array_agg(p.id ORDER BY p.n), '{}') INTO v_inserted
    FROM (SELECT u.id, min(u.n) AS n FROM unnest(p_ids) WITH ORDINALITY AS u(id, n)
           GROUP BY u.id) AS p
   WHERE p.id IN (SELECT opportunity_id FROM ins);
  v_n := cardinality(v_inserted);

  -- Nothing new after all (earlier requests delivered it all): no write (a counters' row created
  -- above for it is deleted again).
  IF v_n = 0 THEN
    IF v_created_usage THEN
      DELETE FROM metering_usage u
       WHERE u.account_id = p_account AND u.period_start = p_period_start;
    END IF;
    outcome := 'repeats';
    new_ids := v_inserted;
    SELECT u.used, u.included_used, u.payg_used INTO used, included_used, payg_used
      FROM metering_usage u WHERE u.account_id = p_account AND u.period_start = p_period_start;
    used := coalesce(used, 0); included_used := coalesce(included_used, 0);
    payg_used := coalesce(payg_used, 0);
    SELECT a.balance_millicents INTO balance FROM accounts a WHERE a.id = p_account;
    included := 0; payg := 0; charge := 0;
    RETURN NEXT;
    RETURN;
  END IF;

  v_available := greatest(0, p_account_allowance - v_acc_included);
  IF v_key_allowance IS NOT NULL THEN
    LOOP
      SELECT k.included_used INTO v_key_included FROM metering_key_usage k
       WHERE k.key_id = p_key AND k.period_start = p_period_start FOR UPDATE;
      EXIT WHEN FOUND;
      INSERT INTO metering_key_usage AS k (key_id, period_start) VALUES (p_key, p_period_start)
      ON CONFLICT (key_id, period_start) DO NOTHING
      RETURNING k.included_used INTO v_key_included;
      v_created_key_usage := FOUND;
      EXIT WHEN FOUND;
    END LOOP;
    v_available := least(v_available, greatest(0, v_key_allowance - v_key_included));
  END IF;

  included_available := v_available;
  included := least(v_n, v_available);
  payg := v_n - included;
  charge := payg::bigint * p_price;

  IF payg > 0 AND p_billing_model = 'legacy_entitlement' THEN
    outcome := 'opportunity_quota_exhausted';
  ELSIF payg > 0 THEN
    UPDATE accounts a SET balance_millicents = a.balance_millicents - charge
     WHERE a.id = p_account AND a.balance_millicents >= charge
    RETURNING a.balance_millicents INTO v_balance;
    IF v_balance IS NULL THEN
      outcome := 'insufficient_balance';
    END IF;
  END IF;

  IF outcome IS NOT NULL THEN
    -- Refused: nothing recorded or charged (contract §16.4).
    DELETE FROM metering_deliveries d
     WHERE d.account_id = p_account AND d.period_start = p_period_start
       AND d.opportunity_id = ANY (v_inserted);
    IF v_created_usage THEN
      DELETE FROM metering_usage u
       WHERE u.account_id = p_account AND u.period_start = p_period_start;
    END IF;
    IF v_created_key_usage THEN
      DELETE FROM metering_key_usage k WHERE k.key_id = p_key AND k.period_start = p_period_start;
    END IF;
    SELECT a.balance_millicents INTO balance FROM accounts a WHERE a.id = p_account;
    new_ids := '{}';
    RETURN NEXT;
    RETURN;
  END IF;

  IF charge > 0 THEN
    INSERT INTO wallet_ledger
      (account_id, kind, request_id, amount_millicents, balance_after, period_start,
       opportunity_count)
    VALUES (p_account, 'charge', p_request_id, -charge, v_balance, p_period_start, payg);
    -- The paid rows are the last `payg` new ids of the page.
    UPDATE metering_deliveries d SET charge_millicents = p_price
     WHERE d.account_id = p_account AND d.period_start = p_period_start
       AND d.opportunity_id = ANY (v_inserted[included + 1:]);
    balance := v_balance;
  ELSE
    SELECT a.balance_millicents INTO balance FROM accounts a WHERE a.id = p_account;
  END IF;
  IF included > 0 THEN
    INSERT INTO metering_key_usage AS k (key_id, period_start, included_used)
    VALUES (p_key, p_period_start, included)
    ON CONFLICT (key_id, period_start) DO UPDATE SET included_used = k.included_used + EXCLUDED.included_used;
  END IF;
  UPDATE metering_usage u
     SET used = u.used + v_n, included_used = u.included_used + included,
         payg_used = u.payg_used + payg, period_end = p_period_end, updated_at = now()
   WHERE u.account_id = p_account AND u.period_start = p_period_start
  RETURNING u.used, u.included_used, u.payg_used INTO used, included_used, payg_used;

  outcome := 'delivered';
  new_ids := v_inserted;
  RETURN NEXT;
END;
$$;

-- Several calls of one account, each as meter_deliver would charge it, in ONE autocommitted
-- statement: the calls' order is the order consecutive statements would have had, and each call's
-- row answers what its meter_deliver would have (n: the call's position, from 1). All the calls
-- share the account, its held billing state (p_fingerprint, checked once: 'stale' answers every
-- call, nothing written) and the period; each has its key, its ids (p_ids: the call's uuids in page
-- order joined by commas, a uuid holds none; empty: no candidate), its request id and whether to
-- spend it.
-- Every request id is spent before the first charge (lock order step 1, above): in id order, by
-- one insert; a call whose id was spent before, or by an earlier call of the statement, answers
-- 'duplicate_request_id' having written nothing else. Then each other call is meter_charge, in
-- order: the first charge locks the counters (step 2), and the later ones find them held already.
CREATE FUNCTION meter_deliver_many(
  p_account uuid,
  p_fingerprint text,
  p_period_start timestamptz,
  p_period_end timestamptz,
  p_keys uuid[],
  p_ids text[],
  p_request_ids text[],
  p_spend boolean[],
  p_account_allowance integer,
  p_billing_model text,
  p_price integer,
  p_lock_timeout_ms integer
) RETURNS TABLE (
  n integer,
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
  v_fresh text[];
  i integer;
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true);
  PERFORM set_config('lock_timeout', p_lock_timeout_ms::text, true);

  SELECT meter_billing_fingerprint(a.plan_id, a.billing_model, a.status, a.allowance_override,
                                   a.period_start, a.period_end)
    INTO v_fingerprint
    FROM accounts a WHERE a.id = p_account;
  IF v_fingerprint IS DISTINCT FROM p_fingerprint THEN
    outcome := 'stale';
    FOR i IN 1 .. cardinality(p_keys) LOOP
      n := i;
      RETURN NEXT;
    END LOOP;
    RETURN;
  END IF;

  WITH spent AS (
    INSERT INTO metering_request_ids (account_id, request_id)
    SELECT p_account, t.id
      FROM (SELECT DISTINCT r.id FROM unnest(p_request_ids, p_spend) AS r(id, spend)
             WHERE r.spend) AS t
     ORDER BY t.id
    ON CONFLICT (account_id, request_id) DO NOTHING
    RETURNING request_id
  )
  SELECT coalesce(array_agg(request_id), '{}') INTO v_fresh FROM spent;

  FOR i IN 1 .. cardinality(p_keys) LOOP
    IF p_spend[i] THEN
      IF NOT p_request_ids[i] = ANY (v_fresh) THEN
        n := i;
        outcome := 'duplicate_request_id';
        RETURN NEXT;
        CONTINUE;
      END IF;
      -- The first call of an id spends it; a later call of the same id is a duplicate.
      v_fresh := array_remove(v_fresh, p_request_ids[i]);
    END IF;
    RETURN QUERY SELECT i, c.* FROM meter_charge(
      p_account, p_keys[i], p_period_start, p_period_end,
      string_to_array(p_ids[i], ',')::uuid[], p_request_ids[i], p_account_allowance,
      p_billing_model, p_price) AS c;
  END LOOP;
END;
$$;
