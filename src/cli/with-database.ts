import type { AuditContext } from '../audit/audit.ts';
import { loadConfig } from '../config.ts';
import { type Database, openReadyDatabase } from '../db/database.ts';

/** Runs a command against the configured database, printing its result as one JSON line. */
export async function withDatabase(fn: (db: Database) => Promise<unknown>, options: { migrate?: boolean } = {}) {
  const db = await openReadyDatabase(loadConfig(), options.migrate ?? false);
  try {
    process.stdout.write(`${JSON.stringify(await fn(db))}\n`);
  } finally {
    await db.close();
  }
}

/** The audit context of an operator at the command line. */
export async function operatorContext(db: Database, organizationId: string): Promise<AuditContext> {
  if (!(await db.operator.findOrganization(organizationId))) throw new CliError(`There is no organization ${organizationId}.`);
  return { actor: { organizationId, kind: 'system', id: 'cli', role: null }, requestId: null, sourceIp: null };
}

/** A mistake of the operator's: printed as a message, without a stack trace. */
export class CliError extends Error {
  override name = 'CliError';
}
