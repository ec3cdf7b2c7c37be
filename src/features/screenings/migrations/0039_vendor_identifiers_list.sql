-- A vendor's identifiers become a list of {type, value, country?}, as every screened subject's
-- are (issue 30). The object {duns, uei, cage, lei} stored before is converted: a D-U-N-S number
-- is a registration number, an LEI an lei, a SAM.gov UEI or CAGE code `other`. Row-level security
-- is forced on this table, for its owner too, so it is lifted for the conversion alone, inside
-- this migration's transaction.
ALTER TABLE vendors NO FORCE ROW LEVEL SECURITY;
UPDATE vendors SET identifiers = COALESCE(
  (SELECT jsonb_agg(jsonb_build_object('type', CASE e.key WHEN 'duns' THEN 'registration' WHEN 'lei' THEN 'lei' ELSE 'other' END, 'value', e.value) ORDER BY e.key)
     FROM jsonb_each_text(vendors.identifiers) AS e),
  '[]'::jsonb)
WHERE jsonb_typeof(identifiers) = 'object';
ALTER TABLE vendors FORCE ROW LEVEL SECURITY;
ALTER TABLE vendors ALTER COLUMN identifiers SET DEFAULT '[]';
ALTER TABLE vendors ADD CONSTRAINT vendors_identifiers_is_a_list CHECK (jsonb_typeof(identifiers) = 'array');
