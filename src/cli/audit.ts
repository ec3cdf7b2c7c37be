import { Command } from 'commander';
import { verifyChain } from '../audit/audit-verifier.ts';
import { withDatabase } from './with-database.ts';

export function auditCommand() {
  const audit = new Command('audit').description('Inspect the audit trail.');
  audit
    .command('verify')
    .description("Re-walk each organization's hash chain and report the first broken link. Exits 1 if any chain is broken.")
    .option('--org <id>', 'only this organization')
    .action((options: { org?: string }) =>
      withDatabase(async (db) => {
        const ids = options.org ? [options.org] : (await db.operator.listOrganizations()).map((o) => o.id);
        const organizations = [];
        for (const id of ids) organizations.push(await verifyChain(db, id));
        const intact = organizations.every((o) => o.intact);
        if (!intact) process.exitCode = 1;
        return { intact, organizations };
      }),
    );
  return audit;
}
