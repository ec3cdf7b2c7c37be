-- Cases are opened in the screening's own transaction now (the adjudication feature), so no
-- screening waits for one: the marker for "a case is still to be opened" goes.
DROP INDEX screenings_needing_cases;
REVOKE UPDATE (case_id, needs_case) ON screenings FROM gatehouse_runtime;
ALTER TABLE screenings DROP COLUMN needs_case;
CREATE INDEX screenings_by_case ON screenings (organization_id, case_id) WHERE case_id IS NOT NULL;
