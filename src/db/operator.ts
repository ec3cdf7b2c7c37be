/**
 * What operators do from the command line and nobody does through the API: create and list
 * organizations. These run as the owner because an organization is not tenant data until it exists.
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
  created_at: Date;
};

export type Operator = ReturnType<typeof createOperator>;

export function createOperator(owner: Kysely<Schema>) {
  const columns = ['id', 'name', 'tier', 'state', 'session_max_seconds', 'created_at'] as const;
  return {
    createOrganization: (input: { name: string; tier: Tier }): Promise<Organization> =>
      owner.insertInto('organizations').values({ id: newId('org'), ...input }).returning(columns).executeTakeFirstOrThrow(),
    listOrganizations: (): Promise<Organization[]> => owner.selectFrom('organizations').select(columns).orderBy('id').execute(),
    findOrganization: (id: string): Promise<Organization | undefined> =>
      owner.selectFrom('organizations').select(columns).where('id', '=', id).executeTakeFirst(),
  };
}
