/**
 * Signing out: the presented JWT is refused from now on, until it would have expired anyway.
 */
import { Type } from 'typebox';
import { auditContextOf } from '../../http/audit-context.ts';
import { AppError } from '../../http/errors.ts';
import type { Feature } from '../../http/feature.ts';

const signOut: Feature = {
  name: 'sign-out',
  async register(api, { tokens }) {
    api.post(
      '/auth/logout',
      {
        config: { tier: 'defense', permission: 'sign_out', problems: ['forbidden'] },
        schema: {
          tags: ['authentication'],
          summary: 'Sign out: revoke the token of this request',
          description: 'For JWTs only. The token is refused from now until its expiry; an API key is disabled or revoked instead.',
          response: { 204: Type.Null({ description: 'Signed out.' }) },
        },
      },
      async (request, reply) => {
        const token = request.actor?.token;
        if (!token) throw new AppError('forbidden', 'Only a token can be signed out; disable or revoke an API key instead.');
        await tokens.revoke(auditContextOf(request), token);
        return reply.code(204).send(null);
      },
    );
  },
};

export default signOut;
