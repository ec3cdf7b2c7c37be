-- Organization watchlists: an organization's own "do not admit" and internal-party lists, screened
-- beside the public lists. Nothing is deleted: a removed entry keeps its row (removed_at) and a
-- deleted watchlist its rows (deleted_at), so every version stays explainable to an auditor.
CREATE TABLE watchlists (
  organization_id text NOT NULL REFERENCES organizations (id),
  id text NOT NULL CHECK (id ~ '^wl_[0-9a-z]{26}$'),
  -- Matches on the watchlist are labelled ORG:<slug>, as a public list's are OFAC_SDN.
  slug text NOT NULL CHECK (slug ~ '^[a-z0-9][a-z0-9_-]{0,39}$'),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  description text CHECK (length(description) <= 2000),
  -- The alert threshold for this watchlist's entries (null: the organization's match threshold).
  threshold numeric CHECK (threshold BETWEEN 0.5 AND 1),
  -- An inactive watchlist is kept and editable but matches nothing.
  active boolean NOT NULL,
  -- The current version: every change of the watchlist or its entries adds one, under this row's
  -- lock, so versions commit in order and an index can read "what changed after version n".
  version integer NOT NULL CHECK (version >= 0),
  entry_count integer NOT NULL CHECK (entry_count >= 0),
  created_by text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  deleted_at timestamptz,
  PRIMARY KEY (organization_id, id)
);
CREATE UNIQUE INDEX watchlists_by_slug ON watchlists (organization_id, slug) WHERE deleted_at IS NULL;
SELECT enable_tenant_isolation('watchlists');
GRANT SELECT, INSERT ON watchlists TO gatehouse_runtime;
GRANT UPDATE (slug, name, description, threshold, active, version, entry_count, updated_at, deleted_at) ON watchlists TO gatehouse_runtime;
-- A change to a watchlist (and so to any of its entries) tells every process's watchlist index,
-- through the stamp each tenant transaction reads, to catch up.
CREATE TRIGGER watchlists_bump_settings_stamp AFTER INSERT OR UPDATE OR DELETE ON watchlists
  FOR EACH ROW EXECUTE FUNCTION bump_settings_stamp();

CREATE TABLE watchlist_entries (
  organization_id text NOT NULL REFERENCES organizations (id),
  watchlist_id text NOT NULL,
  id text NOT NULL CHECK (id ~ '^wle_[0-9a-z]{26}$'),
  -- The caller's own key for the entry (an HR id, a case number): what an upsert matches on.
  external_id text CHECK (length(external_id) BETWEEN 1 AND 128),
  type text NOT NULL CHECK (type IN ('person', 'organization', 'vessel')),
  -- [{ "full": "…", "kind": "primary" | "strong_alias" }], the primary first.
  names jsonb NOT NULL,
  -- ["1971-04-02", "1971-04", "1971"]
  dates_of_birth jsonb NOT NULL,
  -- ISO 3166-1 alpha-2 codes.
  countries jsonb NOT NULL,
  -- [{ "type": "passport", "value": "…", "country": "GB" }]
  identifiers jsonb NOT NULL,
  reason text NOT NULL CHECK (length(reason) BETWEEN 1 AND 2000),
  severity text NOT NULL CHECK (severity IN ('red', 'orange', 'yellow')),
  -- After this instant the entry no longer matches (it stays listed, as expired).
  expires_at timestamptz,
  added_by text NOT NULL,
  added_at timestamptz NOT NULL,
  updated_by text NOT NULL,
  updated_at timestamptz NOT NULL,
  removed_at timestamptz,
  -- The watchlist version of the entry's last change (added, changed or removed).
  version integer NOT NULL CHECK (version >= 1),
  -- SHA-256 of the entry's screened and shown facts, as a public list entry's (entry_sha256 in a match).
  sha256 text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  PRIMARY KEY (organization_id, id),
  FOREIGN KEY (organization_id, watchlist_id) REFERENCES watchlists (organization_id, id)
);
CREATE INDEX watchlist_entries_by_version ON watchlist_entries (organization_id, watchlist_id, version);
CREATE UNIQUE INDEX watchlist_entries_by_external_id ON watchlist_entries (organization_id, watchlist_id, external_id)
  WHERE removed_at IS NULL AND external_id IS NOT NULL;
SELECT enable_tenant_isolation('watchlist_entries');
GRANT SELECT, INSERT ON watchlist_entries TO gatehouse_runtime;
GRANT UPDATE (external_id, type, names, dates_of_birth, countries, identifiers, reason, severity, expires_at,
              updated_by, updated_at, removed_at, version, sha256) ON watchlist_entries TO gatehouse_runtime;

-- One row per version of a watchlist: what it added, changed and removed, who did it and when.
CREATE TABLE watchlist_versions (
  organization_id text NOT NULL REFERENCES organizations (id),
  watchlist_id text NOT NULL,
  version integer NOT NULL CHECK (version >= 1),
  -- created, updated (the watchlist's own fields), deleted; entries_added, entries_changed, entries_removed (one entry);
  -- entries_upserted, entries_replaced (an import)
  change text NOT NULL,
  added integer NOT NULL CHECK (added >= 0),
  changed integer NOT NULL CHECK (changed >= 0),
  removed integer NOT NULL CHECK (removed >= 0),
  entry_count integer NOT NULL CHECK (entry_count >= 0),
  -- { "added": [entry ids], "changed": [...], "removed": [...] } (ids only: names stay in the entries).
  entries jsonb NOT NULL,
  -- SHA-256 of the version's entries: the lines `<entry id>:<entry sha256>` of the entries not removed, in id order,
  -- joined by line feeds (version-writes.ts): what the watchlist held after the version.
  content_sha256 text NOT NULL CHECK (content_sha256 ~ '^[0-9a-f]{64}$'),
  actor text NOT NULL,
  request_id text,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (organization_id, watchlist_id, version),
  FOREIGN KEY (organization_id, watchlist_id) REFERENCES watchlists (organization_id, id)
);
SELECT enable_tenant_isolation('watchlist_versions');
GRANT SELECT, INSERT ON watchlist_versions TO gatehouse_runtime;
