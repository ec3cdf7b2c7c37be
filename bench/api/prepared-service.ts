/**
 * A service ready to be measured on one database: migrated, the real lists imported with the CLI
 * (as an operator loads them offline), an organization with a key whose rate limit is raised out
 * of the way (the limiter must not shape the run), then `gatehouse serve` started and waited for
 * until /api/readyz says the lists are loaded and indexed.
 */
import path from 'node:path';
import type { BenchDatabase } from './databases.ts';
import { gatehouse, type ServiceProcess, type StartOptions, startService, waitUntilReady } from './service-process.ts';

/** Every list the service screens against in production, one folder each (the reader does not descend into ofac_sdn_2024-05/history/). */
export const LIST_FOLDERS = ['ofac_sdn_2024-05', 'ofac_cons_2025-12', 'un_sc_2026-02', 'bis_dpl_2023-11', 'bis_el_meu_2026-08_as_csl', 'uk_fcdo_2025-08'];
/** The largest rate the organizations table accepts (migration 0003). */
export const RATE_LIMIT_OUT_OF_THE_WAY = 100_000;

export type ImportedLists = { lists: { count: number; entities: number }; importSeconds: number };
export type ReadyService = { service: ServiceProcess; startSeconds: number };
export type PreparedService = ImportedLists & ReadyService & { apiKey: string };

type ImportedList = { status: string; list: string; entity_count: number };

/** Migrates the database and imports every list with `gatehouse lists import`. */
export function importLists(database: BenchDatabase, dataDir: string): ImportedLists {
  gatehouse(['migrate'], database.env);
  const started = performance.now();
  const imported = gatehouse<ImportedList[]>(['lists', 'import', ...LIST_FOLDERS.map((folder) => path.join(dataDir, folder))], database.env);
  const importSeconds = (performance.now() - started) / 1000;
  return { lists: { count: imported.length, entities: imported.reduce((sum, list) => sum + list.entity_count, 0) }, importSeconds };
}

/** Starts `gatehouse serve` and waits until /api/readyz passes. */
export async function startReadyService(database: BenchDatabase, options: StartOptions = {}): Promise<ReadyService> {
  const started = performance.now();
  const service = await startService(database.env, options);
  try {
    await waitUntilReady(service.baseUrl);
  } catch (error) {
    await service.stop();
    throw new Error(`${(error as Error).message}\n${service.output().slice(-4000)}`);
  }
  return { service, startSeconds: (performance.now() - started) / 1000 };
}

/** An Enterprise organization whose rate limit is out of the way, and an API key for it, made with the CLI. */
export function createBenchOrganization(env: Record<string, string>, name: string): { apiKey: string; organizationId: string } {
  const organization = gatehouse<{ id: string }>(['orgs', 'create', '--name', name, '--tier', 'enterprise'], env).id;
  gatehouse(['orgs', 'update', '--org', organization, '--rate-limit', String(RATE_LIMIT_OUT_OF_THE_WAY)], env);
  return { apiKey: gatehouse<{ key: string }>(['keys', 'create', '--org', organization, '--name', name], env).key, organizationId: organization };
}

export async function prepareService(database: BenchDatabase, dataDir: string, options: StartOptions = {}): Promise<PreparedService> {
  const imported = importLists(database, dataDir);
  const { apiKey } = createBenchOrganization(database.env, 'bench:api');
  return { ...imported, ...(await startReadyService(database, options)), apiKey };
}
