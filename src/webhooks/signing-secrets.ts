/**
 * A record's signing secrets as stored: the current one sealed, and after a rotation the previous
 * one too, valid for 24 more hours so that the other side can switch without losing a message.
 * Shared by outbound endpoints (we sign with both) and the inbound secret (we accept both).
 */
import type { SecretBox } from './secret-box.ts';
import { generateSigningSecret } from './standard-webhooks.ts';

export const PREVIOUS_SECRET_VALID_MS = 24 * 3600 * 1000;

export type SealedSecrets = {
  secret_ciphertext: string;
  previous_secret_ciphertext: string | null;
  previous_secret_expires_at: Date | null;
};

/** The secrets that sign or verify at `now`: the current one first. */
export function activeSecrets(box: SecretBox, sealed: SealedSecrets, context: string, now: Date): string[] {
  const secrets = [box.open(sealed.secret_ciphertext, context)];
  const expires = sealed.previous_secret_expires_at;
  if (sealed.previous_secret_ciphertext && expires && expires.getTime() > now.getTime()) secrets.push(box.open(sealed.previous_secret_ciphertext, context));
  return secrets;
}

/** A new secret (to show once) and its sealed form, for a record that has none yet. */
export function newSealedSecret(box: SecretBox, context: string): { secret: string; sealed: SealedSecrets } {
  const secret = generateSigningSecret();
  return { secret, sealed: { secret_ciphertext: box.seal(secret, context), previous_secret_ciphertext: null, previous_secret_expires_at: null } };
}

/** A new secret replacing `current`, which stays valid for PREVIOUS_SECRET_VALID_MS. */
export function rotatedSecrets(box: SecretBox, current: SealedSecrets, context: string, now: Date): { secret: string; sealed: SealedSecrets } {
  const { secret, sealed } = newSealedSecret(box, context);
  return {
    secret,
    sealed: {
      ...sealed,
      previous_secret_ciphertext: current.secret_ciphertext,
      previous_secret_expires_at: new Date(now.getTime() + PREVIOUS_SECRET_VALID_MS),
    },
  };
}
