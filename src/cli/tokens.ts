import { Command, Option } from 'commander';
import { loadSigningKey } from '../auth/token-keys.ts';
import { createTokenService } from '../auth/tokens.ts';
import type { Role } from '../http/actor.ts';
import { operatorContext, withDatabase } from './with-database.ts';

export function tokensCommand() {
  const tokens = new Command('tokens').description('Issue JWTs for people (interactive admin flows).');
  tokens
    .command('issue')
    .description('Sign a token; it is in the "token" field. Its lifetime is capped by the organization\'s session policy.')
    .requiredOption('--org <id>', 'the organization')
    .requiredOption('--subject <email>', 'the person')
    .addOption(new Option('--role <role>', 'their role').choices(['admin', 'adjudicator', 'viewer']).makeOptionMandatory())
    .option('--ttl <seconds>', 'lifetime in seconds (default: the session policy)', (v) => Number.parseInt(v, 10))
    .action((options: { org: string; subject: string; role: Role; ttl?: number }) =>
      withDatabase(async (db) => {
        const service = createTokenService(db, await loadSigningKey(db));
        const issued = await service.issue(await operatorContext(db, options.org), {
          subject: options.subject,
          role: options.role,
          ...(options.ttl !== undefined && { ttlSeconds: options.ttl }),
        });
        return issued;
      }),
    );
  return tokens;
}
