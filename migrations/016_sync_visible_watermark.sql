-- The change feed shows a change once list and count reflect it (contract §12.2). sync_state's
-- watermark is saved after each indexed batch, so that a sync stopped midway resumes after it,
-- but a batch becomes searchable only at the refresh that follows, and the API's result caches
-- drop older answers only at the index-changed notice after that: a client that read a change in
-- the feed and searched for it at once could miss it. The feed reads this one instead, written
-- after the refresh and the notice.
ALTER TABLE sync_state ADD COLUMN visible_watermark bigint NOT NULL DEFAULT 0;

-- What is indexed now has been refreshed long since.
UPDATE sync_state SET visible_watermark = watermark;
