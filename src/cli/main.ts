/**
 * The `gatehouse` command. Each subcommand has --help; those a script reads print JSON on stdout
 * and put human messages on stderr.
 */
import { Command, CommanderError } from 'commander';
import { VERSION } from '../version.ts';

/**
 * Each subcommand's module, loaded only when that subcommand runs (all of them for the overall
 * help). Loading the server's modules through tsx took about as long again as the rest of a
 * start, and a script calling `gatehouse orgs create` or `gatehouse keys create` needs none of them.
 */
const SUBCOMMANDS: Record<string, () => Promise<Command>> = {
  serve: async () => (await import('./serve.ts')).serveCommand(),
  migrate: async () => (await import('./migrate.ts')).migrateCommand(),
  orgs: async () => (await import('./orgs.ts')).orgsCommand(),
  keys: async () => (await import('./keys.ts')).keysCommand(),
  tokens: async () => (await import('./tokens.ts')).tokensCommand(),
  users: async () => (await import('./users.ts')).usersCommand(),
  audit: async () => (await import('./audit.ts')).auditCommand(),
  lists: async () => (await import('./lists.ts')).listsCommand(),
};

export async function main(argv: string[]) {
  const program = new Command('gatehouse')
    .description('Restricted-party screening, visitor check-in and adjudication service.')
    .version(VERSION)
    .showHelpAfterError()
    .exitOverride();
  const asked = argv[2];
  const needed = asked !== undefined && Object.hasOwn(SUBCOMMANDS, asked) ? [asked] : Object.keys(SUBCOMMANDS);
  for (const name of needed) program.addCommand(await (SUBCOMMANDS[name] as () => Promise<Command>)());
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
