/**
 * Standard Webhooks v1 (github.com/standard-webhooks/standard-webhooks, spec/standard-webhooks.md):
 * secrets, signatures and their verification. A secret is `whsec_` + base64 of random bytes and
 * its key is those bytes; a signature is `v1,` + base64 HMAC-SHA256 of `{id}.{timestamp}.{body}`;
 * the header may hold several, space-separated, so a rotated secret and its successor both verify.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';
/** 32 random bytes: inside the spec's 24 to 64. */
const SECRET_BYTES = 32;
/** How far a signed timestamp may be from our clock, as the reference libraries allow. */
export const TIMESTAMP_TOLERANCE_SECONDS = 5 * 60;

export const SIGNATURE_HEADERS = { id: 'webhook-id', timestamp: 'webhook-timestamp', signature: 'webhook-signature' } as const;

export function generateSigningSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

const keyOf = (secret: string): Buffer => Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');

const hmacOf = (secret: string, id: string, timestamp: number, body: string): Buffer =>
  createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.${body}`).digest();

/** The `webhook-signature` header: one `v1,<base64>` per secret, space-separated. */
export function signatureHeader(secrets: string[], id: string, timestamp: number, body: string): string {
  return secrets.map((secret) => `v1,${hmacOf(secret, id, timestamp, body).toString('base64')}`).join(' ');
}

export type SignedRequest = { id?: string; timestamp?: string; signature?: string; body: string };
export type VerificationFailure = 'missing_headers' | 'stale_timestamp' | 'invalid_signature';

/** Why a signed request does not verify against any of `secrets` at `nowSeconds`, or undefined when it does. */
export function verificationFailure(request: SignedRequest, secrets: string[], nowSeconds: number): VerificationFailure | undefined {
  const { id, timestamp, signature, body } = request;
  if (!id || !timestamp || !signature) return 'missing_headers';
  if (!/^\d{1,12}$/.test(timestamp) || Math.abs(nowSeconds - Number(timestamp)) > TIMESTAMP_TOLERANCE_SECONDS) return 'stale_timestamp';
  const presented = signature
    .split(' ')
    .filter((entry) => entry.startsWith('v1,'))
    .map((entry) => Buffer.from(entry.slice(3), 'base64'));
  const matches = secrets.some((secret) => {
    const expected = hmacOf(secret, id, Number(timestamp), body);
    return presented.some((candidate) => candidate.length === expected.length && timingSafeEqual(candidate, expected));
  });
  return matches ? undefined : 'invalid_signature';
}
