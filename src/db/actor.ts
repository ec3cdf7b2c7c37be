/**
 * Who is acting: what the tenant transaction is opened for. It has a file of its own because the
 * door (tenant.ts) takes it and its opening query (tenant-settings.ts) sets it, and the door
 * builds on that query: declared in either, it would make the two import each other.
 */

/** Who is acting. The identity issue adds its own kinds; the organization is what RLS needs. */
export type Actor = {
  organizationId: string;
  kind: 'api_key' | 'user' | 'system';
  /** The key id, the JWT subject, or the name of a system job. */
  id: string;
};
