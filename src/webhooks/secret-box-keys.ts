/**
 * The keys that seal webhook secrets. An operator should give them (WEBHOOK_SECRETS_KEY), so that
 * a copy of the database alone does not reveal the secrets. Without them, a key is created on first
 * start and kept in the owner-only `service_secrets` table, like the JWT signing key: never readable
 * by a request, but in the same database as what it seals. That key always opens what it sealed,
 * so secrets sealed before an operator set WEBHOOK_SECRETS_KEY keep working (and are sealed
 * with the configured key when next rotated).
 */
import { randomBytes } from 'node:crypto';
import type { Operator } from '../db/operator.ts';
import { SecretBox } from './secret-box.ts';

const SECRET_NAME = 'webhook_secrets_key_aes256';

export async function loadSecretBox(configured: Buffer[] | undefined, operator: Operator): Promise<SecretBox> {
  const stored = Buffer.from(await operator.serviceSecret(SECRET_NAME, () => randomBytes(32).toString('base64')), 'base64');
  // The first key seals; every key opens.
  return new SecretBox([...(configured ?? []), stored]);
}
