/**
 * Creating and managing API keys: for the HTTP endpoints and the CLI alike. Every change is
 * audited in the transaction that makes it. The full key exists only in the creation answer.
 */
import { type AuditContext, recordAudit } from '../audit/audit.ts';
import type { WithTenant } from '../db/tenant.ts';
import { AppError } from '../http/errors.ts';
import { newId } from '../ids.ts';
import { displayPrefix, generateApiKey, hashApiKey, type KeyEnvironment } from './api-key-format.ts';
import { findKey, insertKey, type KeyRecord, type KeyState, listKeys, setKeyState } from './api-key-store.ts';

export type CreateKeyInput = { name: string; environment: KeyEnvironment; admin: boolean };
export type StateChange = 'disable' | 'enable' | 'revoke';

/** Which state each change leads to, from which states it may start, and the audit action that records it (a verb, not the state). */
const TRANSITIONS: Record<StateChange, { to: KeyState; from: KeyState[]; audited: string }> = {
  disable: { to: 'disabled', from: ['active', 'disabled'], audited: 'api_key.disabled' },
  enable: { to: 'active', from: ['disabled', 'active'], audited: 'api_key.enabled' },
  revoke: { to: 'revoked', from: ['active', 'disabled', 'revoked'], audited: 'api_key.revoked' },
};

export function createApiKeyService(withTenant: WithTenant) {
  return {
    async create(context: AuditContext, input: CreateKeyInput): Promise<{ record: KeyRecord; key: string }> {
      const key = generateApiKey(input.environment);
      const record = await withTenant(context.actor, async (trx) => {
        const created = await insertKey(trx, {
          organization_id: context.actor.organizationId,
          id: newId('key'),
          name: input.name,
          environment: input.environment,
          scope: input.admin ? 'admin' : 'standard',
          display_prefix: displayPrefix(key),
          secret_hash: hashApiKey(key),
          created_by: `${context.actor.kind}:${context.actor.id}`,
        });
        recordAudit(trx, context, {
          action: 'api_key.created',
          target: { type: 'api_key', id: created.id },
          details: { name: created.name, environment: created.environment, scope: created.scope },
        });
        return created;
      });
      return { record, key };
    },

    list(context: AuditContext, page: { limit: number; after?: string }): Promise<KeyRecord[]> {
      return withTenant(context.actor, (trx) => listKeys(trx, page));
    },

    async get(context: AuditContext, id: string): Promise<KeyRecord> {
      return (await withTenant(context.actor, (trx) => findKey(trx, id))) ?? notFound(id);
    },

    async change(context: AuditContext, id: string, change: StateChange): Promise<KeyRecord> {
      return withTenant(context.actor, async (trx) => {
        const current = (await findKey(trx, id)) ?? notFound(id);
        const { to, from, audited } = TRANSITIONS[change];
        if (!from.includes(current.state)) {
          throw new AppError('conflict', `A ${current.state} key cannot be ${change}d; revocation is final.`, {
            current_state: current.state,
          });
        }
        if (current.state === to) return current; // repeating a change is harmless and not re-audited
        const changed = (await setKeyState(trx, id, to)) as KeyRecord;
        recordAudit(trx, context, {
          action: audited,
          target: { type: 'api_key', id },
          details: { from: current.state },
        });
        return changed;
      });
    },
  };
}

export type ApiKeyService = ReturnType<typeof createApiKeyService>;

function notFound(id: string): never {
  throw new AppError('not_found', `There is no API key ${id} in your organization.`);
}
