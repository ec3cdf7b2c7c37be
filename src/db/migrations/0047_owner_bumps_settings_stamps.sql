-- bump_settings_stamp runs as the owner (SECURITY DEFINER, 0037) for whoever changes rules or
-- suppressions. In a tenant transaction the row it stamps is that organization's; a change made
-- outside one (an operator's SQL) left an owner that is not a superuser refused by FORCE ROW
-- LEVEL SECURITY on settings_stamps. Only the owner may write stamps; the runtime role may not.
DO $$
BEGIN
  EXECUTE format('CREATE POLICY owner_bumps_stamps ON settings_stamps FOR INSERT TO %I WITH CHECK (true)', current_user);
  EXECUTE format('CREATE POLICY owner_bumps_stamps_again ON settings_stamps FOR UPDATE TO %I USING (true) WITH CHECK (true)', current_user);
END
$$;
