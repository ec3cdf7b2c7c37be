-- A screening row is written by its transaction's last statement (with its audit and outbox
-- events, sent with COMMIT), after the visitor session that the check-in writes for it: the
-- session's reference to its screening is checked at commit, when the screening is there.
ALTER TABLE visitor_sessions ALTER CONSTRAINT visitor_sessions_organization_id_screening_id_fkey DEFERRABLE INITIALLY DEFERRED;
