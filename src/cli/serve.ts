import { Command } from 'commander';
import { loadConfig } from '../config.ts';
import { startServer } from '../server.ts';

export function serveCommand() {
  return new Command('serve')
    .description(
      'Serve the API on HOST:PORT (default 127.0.0.1:8080). Uses PostgreSQL when DATABASE_URL is set, ' +
        'otherwise the embedded database in DATA_DIR (default ./data), created and migrated on first start.',
    )
    .action(async () => {
      await startServer(loadConfig());
    });
}
