-- The rate limits every process of the service shares on one PostgreSQL (src/db/limit-buckets.ts):
-- a token bucket per key, a credential's requests (`credential:…`) or a source address's failed
-- authentications (`failed:api:…`, `failed:console:…`). The embedded database keeps its limits in
-- its one process's memory and leaves this table empty.
--
-- UNLOGGED: an update is not written to the WAL, so it costs little, and a crash empties the table,
-- every bucket full again as after restarting a single process: harmless for limits. (Replicas do
-- not get its rows either: after a fail-over the buckets start full, likewise.)
--
-- Not tenant data: rows are keyed by credential or address and read and written by the owner,
-- before any organization is known. The runtime role gets nothing on it, so no organization can
-- read another's credentials or clients through it, and it needs no row-level security.
--
-- The key is its only index, and pages are left 30% free, so that an update stays on its page
-- (a HOT update, no index to touch). A row whose bucket is full again says no more than a missing
-- row, and is swept.
CREATE UNLOGGED TABLE limit_buckets (
  key text PRIMARY KEY,
  -- The bucket as its last user described it: the service's settings, the same in every process.
  capacity double precision NOT NULL CHECK (capacity >= 1),
  rate double precision NOT NULL CHECK (rate > 0),
  tokens double precision NOT NULL,
  -- What the last take granted: RETURNING shows the row after the update, not what was decided.
  granted integer NOT NULL,
  -- When `tokens` was true, on the database's clock, which every process shares.
  at timestamptz NOT NULL
) WITH (fillfactor = 70);
REVOKE ALL ON limit_buckets FROM PUBLIC;
