import { Command } from 'commander';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';

export function migrateCommand() {
  return new Command('migrate')
    .description('Apply pending database migrations and print the result as JSON.')
    .option('--status', 'only report which migrations are pending; change nothing')
    .action(async (options: { status?: boolean }) => {
      const db = await openDatabase(loadConfig());
      try {
        const result = options.status ? await db.migrationStatus() : await db.migrate();
        process.stdout.write(`${JSON.stringify({ database: db.backend, ...result })}\n`);
      } finally {
        await db.close();
      }
    });
}
