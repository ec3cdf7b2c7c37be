-- A list version is written in steps: its row first, marked not complete, then its entries and
-- changes in small statements, then one short transaction marks it complete and moves its
-- list's head to it (src/lists/list-staging.ts). On the embedded database one long transaction
-- would hold the only backend, and every request with it, for the whole import.
-- Versions written before this migration were written whole: they are complete.
ALTER TABLE list_versions ADD COLUMN complete boolean NOT NULL DEFAULT true;
ALTER TABLE list_versions ALTER COLUMN complete SET DEFAULT false;
-- When the import writing an incomplete version last wrote to it; one left untouched for long was
-- abandoned (its process died), and the next import removes it.
ALTER TABLE list_versions ADD COLUMN staged_at timestamptz;
