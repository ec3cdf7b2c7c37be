-- The parties of each current stored determination, by what a new list version can reach them
-- through (src/features/ownership/party-keys.ts): a list entry its name screening counted
-- (`entry:<LIST>:<entry id>`), and each distinctive word of a screened party's name
-- (`word:<word>`, with the names that carry it, to be screened again against the version's
-- changed entries alone). A version's changes find the determinations to re-evaluate here, at a
-- cost that grows with the entries it changed, not with the determinations stored. Written with
-- the determination; a re-evaluation that supersedes one deletes its rows and writes its own.
-- No foreign key to ownership_checks: the rows are written by the code that writes their
-- determination, in its transaction, a hundred or so a determination, and with a key check for
-- each, storing grew slower with every determination stored (on the embedded database, 30 ms a
-- check over the first 500 stored, 63 ms by 2,500; 21–25 ms throughout without it).
CREATE TABLE ownership_check_parties (
  organization_id text NOT NULL REFERENCES organizations (id),
  key text NOT NULL CHECK (length(key) BETWEEN 6 AND 600),
  check_id text NOT NULL,
  -- For a word: the names ({name, kind, country}) of the graph's screened parties that carry it; [] for an entry.
  names jsonb NOT NULL,
  PRIMARY KEY (organization_id, key, check_id)
);
CREATE INDEX ownership_check_parties_by_check ON ownership_check_parties (organization_id, check_id);
SELECT enable_tenant_isolation('ownership_check_parties');
GRANT SELECT, INSERT, DELETE ON ownership_check_parties TO gatehouse_runtime;
