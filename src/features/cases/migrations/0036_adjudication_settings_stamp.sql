-- Every screening reads its organization's current rules and, on a potential match, its
-- suppressions; the service keeps both per organization while its settings stamp (0035) holds.
-- Any change to either table changes the stamp in the same transaction.
CREATE TRIGGER adjudication_rules_bump_settings_stamp AFTER INSERT OR UPDATE OR DELETE ON adjudication_rules
  FOR EACH ROW EXECUTE FUNCTION bump_settings_stamp();
CREATE TRIGGER suppressions_bump_settings_stamp AFTER INSERT OR UPDATE OR DELETE ON suppressions
  FOR EACH ROW EXECUTE FUNCTION bump_settings_stamp();
