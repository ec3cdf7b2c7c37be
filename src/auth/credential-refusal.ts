import { AppError } from '../http/errors.ts';

const CHALLENGE = 'Bearer realm="gatehouse"';

/**
 * A refused credential, with the RFC 6750 challenge: a bare `Bearer` challenge when no usable
 * credential was sent, `error="invalid_token"` when one was sent and is not accepted.
 */
export function refuseCredential(
  code: 'unauthenticated' | 'key_disabled' | 'key_revoked' | 'token_expired',
  detail: string,
  invalidToken = code !== 'unauthenticated',
): AppError {
  return new AppError(code, detail, {
    headers: { 'www-authenticate': invalidToken ? `${CHALLENGE}, error="invalid_token"` : CHALLENGE },
  });
}

/** Every credential of a suspended organization is refused the same way, key or token. */
export const organizationSuspended = () => new AppError('organization_suspended', 'The organization is suspended; contact support.');
