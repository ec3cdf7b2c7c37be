-- A case's history and suppressions refer to it by (organization_id, id), and PostgreSQL checks each
-- reference with a plan it keeps for the session. Planned while `cases` was empty and had no
-- statistics, (organization_id, screening_id) cost the same as the key, and a session that took it
-- scanned all of an organization's cases for every case it opened (0.2 ms a check early in a
-- bench:api run, 2.7 ms ten seconds later) until autovacuum's first ANALYZE; on the embedded
-- database, which runs no autovacuum, for good. Screening ids are unique on their own, so this
-- index needs no organization column, and only the key fits a case's reference.
-- test/db/foreign-key-plans.test.ts keeps every reference of the schema to its key.
DROP INDEX cases_by_screening;
CREATE INDEX cases_by_screening ON cases (screening_id);
