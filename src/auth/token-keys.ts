/**
 * The keys JWTs are signed and verified with. Gatehouse's own tokens are signed with an Ed25519
 * key created on first start and kept in the owner-only `service_secrets` table (never logged,
 * never readable by a request). Optionally, tokens of an external identity provider are
 * trusted through its JWKS.
 */
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { createRemoteJWKSet, type JWTVerifyGetKey } from 'jose';
import type { Database } from '../db/database.ts';

export const TOKEN_ALGORITHM = 'EdDSA';
const SECRET_NAME = 'jwt_signing_key_ed25519';

export type SigningKey = { kid: string; privateKey: KeyObject; publicKey: KeyObject };

export async function loadSigningKey(db: Database): Promise<SigningKey> {
  const pem = await db.operator.serviceSecret(SECRET_NAME, () => generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
  const privateKey = createPrivateKey(pem);
  const publicKey = createPublicKey(privateKey);
  const kid = createHash('sha256')
    .update(publicKey.export({ type: 'spki', format: 'der' }))
    .digest('base64url')
    .slice(0, 16);
  return { kid, privateKey, publicKey };
}

/** The external identity provider's keys, fetched and cached by jose, when one is configured. */
export const externalKeySet = (jwksUrl: string): JWTVerifyGetKey => createRemoteJWKSet(new URL(jwksUrl));
