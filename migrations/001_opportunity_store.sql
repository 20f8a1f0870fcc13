-- Canonical opportunity records, the versioned occupational taxonomy and sync bookkeeping.

CREATE TABLE taxonomy_versions (
  version    text PRIMARY KEY,
  is_current boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);
-- At most one current version.
CREATE UNIQUE INDEX taxonomy_versions_one_current ON taxonomy_versions (is_current) WHERE is_current;

CREATE TABLE taxonomy_nodes (
  version   text NOT NULL REFERENCES taxonomy_versions (version),
  id        text NOT NULL CHECK (id ~ '^[a-z0-9_]+$'),
  parent_id text,
  level     text NOT NULL CHECK (level IN ('root', 'domain', 'family', 'subfamily', 'class')),
  label     text NOT NULL CHECK (length(label) > 0),
  PRIMARY KEY (version, id),
  FOREIGN KEY (version, parent_id) REFERENCES taxonomy_nodes (version, id) DEFERRABLE INITIALLY DEFERRED,
  CHECK ((level = 'root') = (parent_id IS NULL))
);

-- Every change to a record takes the next sync_seq; incremental sync indexes seq > watermark.
-- Writers serialise on an advisory lock, so sequence values become visible in order.
CREATE SEQUENCE opportunity_sync_seq;

CREATE TABLE opportunities (
  id               uuid PRIMARY KEY,
  record           jsonb NOT NULL,
  content_hash     text NOT NULL,
  liveness_status  text NOT NULL CHECK (liveness_status IN ('live', 'unknown', 'blocked', 'dead')),
  published_at     timestamptz,
  first_seen       timestamptz NOT NULL,
  changed_at       timestamptz NOT NULL,
  job_domain       text,
  job_family       text,
  job_subfamily    text,
  job_class        text,
  rate_min         numeric CHECK (rate_min >= 0),
  rate_max         numeric CHECK (rate_max >= 0),
  rate_currency    text CHECK (rate_currency ~ '^[A-Z]{3}$'),
  rate_unit        text CHECK (rate_unit IN ('hour', 'day', 'month', 'year', 'project')),
  taxonomy_version text NOT NULL,
  deleted_at       timestamptz,
  sync_seq         bigint NOT NULL DEFAULT nextval('opportunity_sync_seq'),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  -- contract §2.1: minimum, maximum, currency and unit belong together.
  CHECK ((rate_currency IS NULL) = (rate_unit IS NULL)),
  CHECK (rate_currency IS NOT NULL OR (rate_min IS NULL AND rate_max IS NULL)),
  CHECK (rate_currency IS NULL OR rate_min IS NOT NULL OR rate_max IS NOT NULL),
  CHECK (rate_min IS NULL OR rate_max IS NULL OR rate_min <= rate_max),
  CHECK (record ->> 'id' = id::text)
);
CREATE INDEX opportunities_sync_seq ON opportunities (sync_seq);

CREATE TABLE sync_state (
  index_alias  text PRIMARY KEY,
  watermark    bigint NOT NULL DEFAULT 0,
  index_name   text,
  updated_at   timestamptz NOT NULL DEFAULT now()
);
