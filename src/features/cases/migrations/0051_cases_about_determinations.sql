-- A case is about one subject: a screening (a name that matched a list, or a country hold), or a
-- stored ownership determination (blocked, restricted or indeterminate under the 50 Percent Rule or
-- the Affiliates Rule, per the rules' `ownership.open_case_on`). Exactly one of the two is set; a
-- re-evaluation that changes the determination moves its case to the new one, as a re-screen moves
-- a case to its new screening.
ALTER TABLE cases ALTER COLUMN screening_id DROP NOT NULL;
ALTER TABLE cases ADD COLUMN ownership_check_id text;
ALTER TABLE cases ADD CONSTRAINT cases_one_subject CHECK (num_nonnulls(screening_id, ownership_check_id) = 1);
ALTER TABLE cases ADD CONSTRAINT cases_ownership_check_fkey
  FOREIGN KEY (organization_id, ownership_check_id) REFERENCES ownership_checks (organization_id, id);
GRANT UPDATE (ownership_check_id) ON cases TO gatehouse_runtime;
-- PostgreSQL checks that reference with a plan it keeps for the session; planned on an empty
-- ownership_checks, any index leading with organization_id costs the same as the key, and it took
-- the target's (test/db/foreign-key-plans.test.ts). Targets are looked up under row-level security,
-- which names the organization, so their index needs only the target's id.
DROP INDEX ownership_checks_by_target;
CREATE INDEX ownership_checks_by_target ON ownership_checks (target_id);
