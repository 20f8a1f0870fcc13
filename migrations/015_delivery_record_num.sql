-- Each delivery keeps its record's number (opportunities.record_num, migration 009), written by
-- the charge that records it. The first read of an account's period in a process
-- (billing/period-deliveries.ts, PERIOD_DELIVERIES) took each delivery's number from the record:
-- a join that read the whole id and number index of migration 014, so its time grew with the
-- records stored, not with the deliveries read (2.0-2.6 s at 200,000 deliveries of a million
-- records on the AMD guest of 2026-11-29, against a 5 s request deadline). A record's number never
-- changes, so the copy cannot go stale.
ALTER TABLE metering_deliveries ADD COLUMN record_num integer;

-- The rows of periods still open get their numbers here. Left without, the first read of such a
-- period would look each row's record up: 3.1 s for 200,000 rows on that guest, more than the
-- join it replaces. Rows of ended periods are never read that way (only the current period is),
-- so they keep none; a row still without one is read from its record (period-deliveries.ts).
UPDATE metering_deliveries d SET record_num = o.record_num
  FROM opportunities o, metering_usage u
 WHERE o.id = d.opportunity_id
   AND u.account_id = d.account_id AND u.period_start = d.period_start
   AND u.period_end > now()
   AND d.record_num IS NULL;

-- meter_charge as migration 012 left it, but for the number: looked up before the lock, written
-- with the row.
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
  v_num_ids uuid[];
  v_nums integer[];
BEGIN
  SELECT true, k.allowance INTO v_key_found, v_key_allowance
    FROM api_keys k WHERE k.id = p_key AND k.account_id = p_account;
  IF v_key_found IS NULL THEN
    outcome := 'key_not_found';
    RETURN NEXT;
    RETURN;
  END IF;

  -- The candidates' record numbers, read before the account's counters are locked: the
  -- serialised part below is no longer than it was. An id with no stored record has none.
  SELECT coalesce(array_agg(o.id), '{}'), coalesce(array_agg(o.record_num), '{}')
    INTO v_num_ids, v_nums
    FROM opportunities o WHERE o.id = ANY (p_ids);

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
      (account_id, period_start, opportunity_id, key_id, request_id, charge_millicents,
       record_num)
    SELECT p_account, p_period_start, t.id, p_key, p_request_id, 0, n.num
      FROM (SELECT DISTINCT u.id FROM unnest(p_ids) AS u(id)) AS t
      LEFT JOIN unnest(v_num_ids, v_nums) AS n(id, num) ON n.id = t.id
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
