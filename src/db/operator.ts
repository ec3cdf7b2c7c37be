/**
 * What runs as the owner and never for a request: operators creating and listing organizations
 * (an organization is not tenant data until it exists), and the service's own secrets.
 */
import type { Kysely } from 'kysely';
import { newId } from '../ids.ts';
import type { Schema, Tier } from './schema.ts';

export type Organization = {
  id: string;
  name: string;
  tier: Tier;
  state: 'active' | 'suspended';
  session_max_seconds: number;
  rate_limit_per_second: number | null;
  created_at: Date;
};

export type Operator = ReturnType<typeof createOperator>;

export function createOperator(owner: Kysely<Schema>) {
  const columns = ['id', 'name', 'tier', 'state', 'session_max_seconds', 'rate_limit_per_second', 'created_at'] as const;
  return {
    createOrganization: (input: { name: string; tier: Tier }): Promise<Organization> =>
      owner
        .insertInto('organizations')
        .values({ id: newId('org'), ...input })
        .returning(columns)
        .executeTakeFirstOrThrow(),
    listOrganizations: (): Promise<Organization[]> => owner.selectFrom('organizations').select(columns).orderBy('id').execute(),
    findOrganization: (id: string): Promise<Organization | undefined> =>
      owner.selectFrom('organizations').select(columns).where('id', '=', id).executeTakeFirst(),

    /** Changes an organization's settings; undefined fields are left as they are. */
    updateOrganization: (
      id: string,
      changes: Partial<Pick<Organization, 'name' | 'tier' | 'state' | 'session_max_seconds' | 'rate_limit_per_second'>>,
    ): Promise<Organization | undefined> => owner.updateTable('organizations').set(changes).where('id', '=', id).returning(columns).executeTakeFirst(),

    /** The named secret, created by `create` the first time it is asked for. */
    async serviceSecret(name: string, create: () => string): Promise<string> {
      await owner
        .insertInto('service_secrets')
        .values({ name, value: create() })
        .onConflict((oc) => oc.column('name').doNothing())
        .execute();
      const row = await owner.selectFrom('service_secrets').select('value').where('name', '=', name).executeTakeFirstOrThrow();
      return row.value;
    },
  };
}
