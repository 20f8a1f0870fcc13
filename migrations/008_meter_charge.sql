-- The charge of a delivery as ONE statement (contract §16.3, §16.4, §16.7): src/billing/pg-meter.ts
-- calls meter_charge() in a transaction of its own, so an account's concurrent requests wait on
-- each other only for the short part that must be serialised, not for a whole transaction.
--
-- 1. The page's candidate ids (new at the caller's unlocked read, in page order) are inserted
--    first, in id order, ON CONFLICT DO NOTHING. The primary key decides which are really new:
--    an id inserted meanwhile by a concurrent request of the account (committed or not) is a
--    repeat here, charged once, by the other request. A conflicting insert waits for the other
--    transaction to end, and the id order keeps two overlapping pages from waiting on each other
--    in a cycle. No account-wide lock is held yet.
-- 2. Then the serialised part, taken in one order by every charge (the account's usage row, the
--    key's usage row, the wallet): the period's counters are locked and read at their latest
--    value, the allocation is decided (included allowance of account and key first, then the
--    wallet at p_price each), and either everything is written (counters, wallet with its ledger
--    entry, the paid rows' charge) or, when the wallet or an entitlement cannot cover it, the rows
--    inserted in step 1 are deleted again and nothing is charged (a refusal, not an error: the
--    caller's transaction still commits, and its spent request id with it).
-- The rule is the one of src/billing/allocate.ts and plans.ts includedAvailable(), which the
-- in-memory meter runs; the contract suite holds both to it.
--
-- outcome: 'delivered', 'repeats' (nothing was new after all), 'insufficient_balance',
-- 'opportunity_quota_exhausted', 'key_not_found'. new_ids: the ids recorded, in page order.
-- included_available and balance are what the allocation saw (for a refusal's message).
CREATE FUNCTION meter_charge(
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

  -- Step 1: the rows, in id order (see above), the charge set below once decided.
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

  -- Nothing new after all (concurrent requests delivered it all): no lock, no write.
  IF v_n = 0 THEN
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


  -- Step 2, serialised per account from here to the commit.
  -- The period's first charge creates the counters' row; one created here and then refused is
  -- deleted again below, so a refusal leaves every row as it was.
  LOOP
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

-- The rows written on every request no longer check their account and key by foreign key: each
-- inserted row ran referential-integrity queries (50 for a page of 25 new records, about half of
-- Postgres's time for such a charge), and each took a KEY SHARE lock on the account's row, shared
-- by every concurrent request of the account (a multixact per extra holder). The meter checks that
-- the key is the account's before it writes anything, accounts and keys are never deleted (a key is
-- revoked, an account closed), and the counters and the wallet's entries keep theirs.
ALTER TABLE metering_deliveries
  DROP CONSTRAINT metering_deliveries_account_id_fkey,
  DROP CONSTRAINT metering_deliveries_key_id_fkey;
ALTER TABLE metering_request_ids DROP CONSTRAINT metering_request_ids_account_id_fkey;
