import { Command } from 'commander';
import { createApiKeyService, type StateChange } from '../auth/api-key-service.ts';
import { presentKey } from '../auth/api-key-view.ts';
import { operatorContext, withDatabase } from './with-database.ts';

export function keysCommand() {
  const keys = new Command('keys').description("Manage an organization's API keys. Output is JSON.");
  keys
    .command('create')
    .description('Create a key; the full key is in the "key" field, shown this once.')
    .requiredOption('--org <id>', 'the organization')
    .option('--name <name>', 'what the key is for', 'created from the command line')
    .option('--sandbox', 'a sandbox key (gk_test_…)')
    .option('--admin', "may manage the organization's keys")
    .action((options: { org: string; name: string; sandbox?: boolean; admin?: boolean }) =>
      withDatabase(async (db) => {
        const context = await operatorContext(db, options.org);
        const { record, key } = await createApiKeyService(db.withTenant).create(context, {
          name: options.name,
          environment: options.sandbox ? 'test' : 'live',
          admin: options.admin ?? false,
        });
        return { ...presentKey(record), key };
      }),
    );
  keys
    .command('list')
    .description("List the organization's keys (never the keys themselves).")
    .requiredOption('--org <id>', 'the organization')
    .action((options: { org: string }) =>
      withDatabase(async (db) => {
        const records = await createApiKeyService(db.withTenant).list(await operatorContext(db, options.org), { limit: 10_000 });
        return records.map(presentKey);
      }),
    );
  for (const change of ['disable', 'enable', 'revoke'] as StateChange[]) {
    keys
      .command(`${change} <keyId>`)
      .description(`${change[0]?.toUpperCase()}${change.slice(1)} a key${change === 'revoke' ? ' (final)' : ''}.`)
      .requiredOption('--org <id>', 'the organization')
      .action((keyId: string, options: { org: string }) =>
        withDatabase(async (db) => presentKey(await createApiKeyService(db.withTenant).change(await operatorContext(db, options.org), keyId, change))),
      );
  }
  return keys;
}
