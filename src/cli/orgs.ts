import { Command, Option } from 'commander';
import { recordAudit } from '../audit/audit.ts';
import { withDatabase } from './with-database.ts';

export function orgsCommand() {
  const orgs = new Command('orgs').description('Create and list organizations.');
  orgs
    .command('create')
    .description('Create an organization and print it as JSON.')
    .requiredOption('--name <name>', 'its name')
    .addOption(new Option('--tier <tier>', 'its tier').choices(['defense', 'enterprise']).makeOptionMandatory())
    .action((options: { name: string; tier: 'defense' | 'enterprise' }) =>
      withDatabase(async (db) => {
        const organization = await db.operator.createOrganization({ name: options.name, tier: options.tier });
        const actor = { organizationId: organization.id, kind: 'system' as const, id: 'cli' };
        await db.withTenant(actor, (trx) =>
          recordAudit(trx, { actor, requestId: null, sourceIp: null }, {
            action: 'organization.created',
            target: { type: 'organization', id: organization.id },
            details: { tier: organization.tier },
          }),
        );
        return organization;
      }, { migrate: true }),
    );
  orgs
    .command('list')
    .description('List organizations as JSON.')
    .action(() => withDatabase((db) => db.operator.listOrganizations()));
  return orgs;
}
