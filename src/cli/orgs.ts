import { Command, Option } from 'commander';
import { recordAudit } from '../audit/audit.ts';
import type { Tier } from '../db/schema.ts';
import { CliError, operatorContext, withDatabase } from './with-database.ts';

const integer = (value: string) => {
  const parsed = Number(value);
  if (!Number.isInteger(parsed)) throw new CliError(`${value} is not a whole number`);
  return parsed;
};

export function orgsCommand() {
  const orgs = new Command('orgs').description('Create and list organizations.');
  orgs
    .command('create')
    .description('Create an organization and print it as JSON.')
    .requiredOption('--name <name>', 'its name')
    .addOption(new Option('--tier <tier>', 'its tier').choices(['defense', 'enterprise']).makeOptionMandatory())
    .action((options: { name: string; tier: 'defense' | 'enterprise' }) =>
      withDatabase(
        async (db) => {
          const organization = await db.operator.createOrganization({ name: options.name, tier: options.tier });
          const actor = { organizationId: organization.id, kind: 'system' as const, id: 'cli' };
          await db.withTenant(actor, async (trx) =>
            recordAudit(
              trx,
              { actor, requestId: null, sourceIp: null },
              {
                action: 'organization.created',
                target: { type: 'organization', id: organization.id },
                details: { tier: organization.tier },
              },
            ),
          );
          return organization;
        },
        { migrate: true },
      ),
    );
  orgs
    .command('update')
    .description("Change an organization's settings (audited) and print it as JSON.")
    .requiredOption('--org <id>', 'the organization')
    .option('--name <name>', 'its name')
    .addOption(new Option('--tier <tier>', 'its tier').choices(['defense', 'enterprise']))
    .addOption(new Option('--state <state>', 'suspended: every credential answers 403').choices(['active', 'suspended']))
    .option('--session-max-seconds <seconds>', 'longest JWT lifetime (60 to 86400)', integer)
    .option('--rate-limit <perSecond>', "requests a second per credential; 0 returns to the tier's default", integer)
    .action((options: { org: string; name?: string; tier?: Tier; state?: 'active' | 'suspended'; sessionMaxSeconds?: number; rateLimit?: number }) =>
      withDatabase(async (db) => {
        const context = await operatorContext(db, options.org);
        const changes = {
          ...(options.name !== undefined && { name: options.name }),
          ...(options.tier && { tier: options.tier }),
          ...(options.state && { state: options.state }),
          ...(options.sessionMaxSeconds !== undefined && { session_max_seconds: options.sessionMaxSeconds }),
          ...(options.rateLimit !== undefined && { rate_limit_per_second: options.rateLimit === 0 ? null : options.rateLimit }),
        };
        if (Object.keys(changes).length === 0) throw new CliError('Nothing to change: give at least one setting.');
        const updated = await db.operator.updateOrganization(options.org, changes);
        await db.withTenant(context.actor, async (trx) =>
          recordAudit(trx, context, { action: 'organization.updated', target: { type: 'organization', id: options.org }, details: changes }),
        );
        return updated;
      }),
    );
  orgs
    .command('list')
    .description('List organizations as JSON.')
    .action(() => withDatabase((db) => db.operator.listOrganizations()));
  return orgs;
}
