/**
 * The `gatehouse` command. Each subcommand has --help; those a script reads print JSON on stdout
 * and put human messages on stderr.
 */
import { Command, CommanderError } from 'commander';
import { ConfigError } from '../config.ts';
import { VERSION } from '../version.ts';
import { migrateCommand } from './migrate.ts';
import { serveCommand } from './serve.ts';

export async function main(argv: string[]) {
  const program = new Command('gatehouse')
    .description('Restricted-party screening, visitor check-in and adjudication service.')
    .version(VERSION)
    .showHelpAfterError()
    .exitOverride();
  program.addCommand(serveCommand());
  program.addCommand(migrateCommand());
  try {
    await program.parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) process.exit(error.exitCode);
    // Expected failures (bad configuration, a locked data folder) get their message, not a trace.
    const known = error instanceof ConfigError || (error as Error).name?.endsWith('Error');
    process.stderr.write(`gatehouse: ${known ? (error as Error).message : String(error)}\n`);
    process.exit(1);
  }
}
