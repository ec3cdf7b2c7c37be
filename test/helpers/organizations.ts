import { newId } from '../../src/ids.ts';
import type { OwnerSql } from './test-database.ts';

/** Creates an organization as the owner (as operators do) and returns its id. */
export async function createOrganization(owner: OwnerSql, name = 'Test organization'): Promise<string> {
  const id = newId('org');
  await owner('INSERT INTO organizations (id, name) VALUES ($1, $2)', [id, name]);
  return id;
}
