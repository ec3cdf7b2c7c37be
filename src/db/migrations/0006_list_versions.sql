-- Restricted-party lists: one version per import, its entries, and what changed against the
-- version before. Lists are public data shared by every organization, so these tables have no
-- organization_id and no row-level security: the owner writes them (`gatehouse lists import`,
-- the service's own update), and the runtime role may only read.

CREATE TABLE list_versions (
  id text PRIMARY KEY CHECK (id ~ '^lv_[0-9a-z]{26}$'),
  list text NOT NULL CHECK (list ~ '^[A-Z][A-Z0-9_]{1,39}$'),
  format text NOT NULL,
  -- SHA-256 of the source files as read, and of the canonical entities (what "unchanged" compares).
  source_sha256 text NOT NULL CHECK (source_sha256 ~ '^[0-9a-f]{64}$'),
  content_sha256 text NOT NULL CHECK (content_sha256 ~ '^[0-9a-f]{64}$'),
  published_on date,
  imported_at timestamptz NOT NULL DEFAULT now(),
  entity_count integer NOT NULL CHECK (entity_count >= 0),
  -- {"person": n, "organization": n, "vessel": n, "aircraft": n}
  counts_by_type jsonb NOT NULL,
  previous_version_id text REFERENCES list_versions (id),
  added_count integer NOT NULL,
  removed_count integer NOT NULL,
  changed_count integer NOT NULL,
  files jsonb NOT NULL DEFAULT '[]',
  warnings jsonb NOT NULL DEFAULT '[]'
);
CREATE INDEX list_versions_by_list ON list_versions (list, imported_at);

-- Every entity of a version, as the parser produced it. A full copy per version keeps reading
-- the active lists one simple query; versions are only written when the content changed.
CREATE TABLE list_entries (
  version_id text NOT NULL REFERENCES list_versions (id),
  entry_id text NOT NULL,
  -- SHA-256 of the entity's canonical JSON: equal hashes mean an unchanged entry.
  entry_sha256 text NOT NULL,
  entity jsonb NOT NULL,
  PRIMARY KEY (version_id, entry_id)
);

-- What a version changed against the version before it, by the source's own entry id. The
-- re-screening of existing subjects reads these.
CREATE TABLE list_changes (
  version_id text NOT NULL REFERENCES list_versions (id),
  entry_id text NOT NULL,
  change text NOT NULL CHECK (change IN ('added', 'removed', 'changed')),
  PRIMARY KEY (version_id, entry_id)
);

-- The active version of each list. An import moves this pointer in the same transaction that
-- writes the version, so a failed import leaves the previous version active.
CREATE TABLE list_heads (
  list text PRIMARY KEY,
  version_id text NOT NULL UNIQUE REFERENCES list_versions (id),
  activated_at timestamptz NOT NULL DEFAULT now()
);

GRANT SELECT ON list_versions, list_entries, list_changes, list_heads TO gatehouse_runtime;
