/**
 * A console user as operators see them: never the password hash or the setup token.
 */
import type { UserRecord } from './user-store.ts';

export function presentUser(user: UserRecord) {
  return {
    object: 'console_user' as const,
    id: user.id,
    email: user.email,
    role: user.role,
    state: user.state,
    password_set: user.password_hash !== null,
    setup_link_expires_at: user.setup_expires_at?.toISOString() ?? null,
    locked_until: user.locked_until?.toISOString() ?? null,
    last_sign_in_at: user.last_sign_in_at?.toISOString() ?? null,
    created_by: user.created_by,
    created_at: user.created_at.toISOString(),
  };
}

/** Where a person sets their password: the console's setup page with the one-time token. */
export const setupPath = (token: string) => `/console/setup?token=${encodeURIComponent(token)}`;
