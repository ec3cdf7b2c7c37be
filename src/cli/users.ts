import { Command, Option } from 'commander';
import { loadConfig } from '../config.ts';
import { presentUser, setupPath } from '../features/console/users/present.ts';
import { createUserService } from '../features/console/users/user-service.ts';
import type { Role } from '../http/actor.ts';
import { operatorContext, withDatabase } from './with-database.ts';

/** The console's address as people reach it: --base-url, or where this configuration listens. */
function setupUrl(token: string, baseUrl: string | undefined): string {
  const { host, port } = loadConfig();
  return `${(baseUrl ?? `http://${host}:${port}`).replace(/\/+$/, '')}${setupPath(token)}`;
}

const baseUrlOption = () => new Option('--base-url <url>', "the console's address as people reach it (default: http://HOST:PORT of this configuration)");

export function usersCommand() {
  const users = new Command('users').description('Manage the people who sign in to the console (/console). Output is JSON.');
  users
    .command('create')
    .description('Create a console user; "setup_url" is their one-time password-setup link (valid 72 hours), shown this once.')
    .requiredOption('--org <id>', 'the organization')
    .requiredOption('--email <email>', 'their email address, which they sign in with')
    .addOption(
      new Option('--role <role>', 'viewer: looks; adjudicator: also decides cases; admin: also manages keys and webhooks')
        .choices(['admin', 'adjudicator', 'viewer'])
        .makeOptionMandatory(),
    )
    .addOption(baseUrlOption())
    .action((options: { org: string; email: string; role: Role; baseUrl?: string }) =>
      withDatabase(async (db) => {
        const { user, setupToken } = await createUserService(db.withTenant).create(await operatorContext(db, options.org), {
          email: options.email,
          role: options.role,
        });
        return { ...presentUser(user), setup_url: setupUrl(setupToken, options.baseUrl) };
      }),
    );
  users
    .command('reset')
    .description('Issue a new password-setup link (the old one stops working) and lift a lock: for a forgotten password.')
    .requiredOption('--org <id>', 'the organization')
    .requiredOption('--email <email>', 'the person')
    .addOption(baseUrlOption())
    .action((options: { org: string; email: string; baseUrl?: string }) =>
      withDatabase(async (db) => {
        const { user, setupToken } = await createUserService(db.withTenant).issueSetupLink(await operatorContext(db, options.org), options.email);
        return { ...presentUser(user), setup_url: setupUrl(setupToken, options.baseUrl) };
      }),
    );
  users
    .command('list')
    .description("List the organization's console users.")
    .requiredOption('--org <id>', 'the organization')
    .action((options: { org: string }) =>
      withDatabase(async (db) => (await createUserService(db.withTenant).list(await operatorContext(db, options.org))).map(presentUser)),
    );
  for (const [change, state] of [
    ['disable', 'disabled'],
    ['enable', 'active'],
  ] as const) {
    users
      .command(change)
      .description(change === 'disable' ? 'Stop a person signing in; their current session ends at its next request.' : 'Let a disabled person sign in again.')
      .requiredOption('--org <id>', 'the organization')
      .requiredOption('--email <email>', 'the person')
      .action((options: { org: string; email: string }) =>
        withDatabase(async (db) => presentUser(await createUserService(db.withTenant).setState(await operatorContext(db, options.org), options.email, state))),
      );
  }
  return users;
}
