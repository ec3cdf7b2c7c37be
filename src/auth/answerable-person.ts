/**
 * The person answerable for a credential. A person (a console user or a JWT subject) answers for
 * themselves; an API key answers to whoever created it, through keys that created keys. Four-eyes
 * review compares people, not credentials: a proposal made with a key someone created is theirs.
 */
import type { Actor, TenantTransaction } from '../db/tenant.ts';

/** Keys are created by people or by admin keys; a chain longer than this is not followed. */
const MAX_KEY_CHAIN = 16;

/** `user:<id>` of the person behind this actor, or null when no person is (a key made from the command line, the system). */
export async function answerablePerson(trx: TenantTransaction, actor: Pick<Actor, 'kind' | 'id'>): Promise<string | null> {
  if (actor.kind === 'user') return `user:${actor.id}`;
  if (actor.kind !== 'api_key') return null;
  let keyId = actor.id;
  for (let step = 0; step < MAX_KEY_CHAIN; step++) {
    const key = await trx.selectFrom('api_keys').select('created_by').where('id', '=', keyId).executeTakeFirst();
    const creator = key?.created_by ?? '';
    if (creator.startsWith('user:')) return creator;
    if (!creator.startsWith('api_key:')) return null;
    keyId = creator.slice('api_key:'.length);
  }
  return null;
}
