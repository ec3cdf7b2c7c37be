/**
 * The `gatehouse` command. Each subcommand has --help; those a script reads print JSON on stdout
 * and put human messages on stderr.
 */
import { Command, CommanderError } from 'commander';
import { VERSION } from '../version.ts';
import { auditCommand } from './audit.ts';
import { keysCommand } from './keys.ts';
import { listsCommand } from './lists.ts';
import { migrateCommand } from './migrate.ts';
import { orgsCommand } from './orgs.ts';
import { tokensCommand } from './tokens.ts';
import { usersCommand } from './users.ts';
import { serveCommand } from './serve.ts';

export async function main(argv: string[]) {
  const program = new Command('gatehouse')
    .description('Restricted-party screening, visitor check-in and adjudication service.')
    .version(VERSION)
    .showHelpAfterError()
    .exitOverride();
  program.addCommand(serveCommand());
  program.addCommand(migrateCommand());
  program.addCommand(orgsCommand());
  program.addCommand(keysCommand());
  program.addCommand(tokensCommand());
  program.addCommand(usersCommand());
  program.addCommand(auditCommand());
  program.addCommand(listsCommand());
  try {
    await program.parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) process.exit(error.exitCode);
    // An operator gets the message (bad configuration, a locked data folder, an unknown id),
    // not a stack trace; GATEHOUSE_DEBUG-style tracing is what the logs of `serve` are for.
    process.stderr.write(`gatehouse: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
