-- A screening row is written by its transaction's last statement (with its audit and outbox
-- events, sent with COMMIT), so a case that a re-screen moves to its new screening refers to a
-- row that is not there yet: the reference is checked at commit, when it is.
ALTER TABLE cases ALTER CONSTRAINT cases_organization_id_screening_id_fkey DEFERRABLE INITIALLY DEFERRED;
