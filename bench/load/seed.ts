/**
 * The data a load run starts from: organizations (Enterprise tier, the rate limit raised out of
 * the way), a key each, and a history of stored screenings spread over them, so that row-level
 * security, the indexes and the adjudication queue work at realistic volumes.
 *
 * Screenings are written by the service's own code, in process: the app is built on the
 * benchmark's database exactly as `gatehouse serve` builds it, and each batch of subjects goes
 * through the screening pipeline (`screenings.screenMany`, the path vendor batches and bulk
 * re-screens take) in one tenant transaction. So every row is what a prescreen writes: the
 * screening with its record hash, its audit event in the organization's hash chain, a case (and
 * its first case event) for each potential match, and the outbox events; no SQL here imitates
 * the service. Only the HTTP round trip per screening is skipped, which is what makes 200,000 of
 * them take a minute or two rather than the better part of an hour.
 */
import { buildApp } from '../../src/app.ts';
import type { AuditContext } from '../../src/audit/audit.ts';
import { loadConfig } from '../../src/config.ts';
import { openReadyDatabase } from '../../src/db/database.ts';
import { prescreenInput } from '../../src/features/screenings/screening-input.ts';
import { createOrganizations } from '../api/bench-organizations.ts';
import { seededRandom } from '../matching/perturb.ts';

export type SeededOrganization = { id: string; apiKey: string; screeningIds: string[] };
export type Seeded = {
  organizations: SeededOrganization[];
  screenings: number;
  potentialMatches: number;
  seconds: number;
};

export type SeedOptions = {
  env: Record<string, string>;
  organizations: number;
  screenings: number;
  /** Prescreen bodies (JSON) to draw subjects from: the clean ones and the others (listed, typos, transliterations). */
  subjects: { clean: string[]; listed: string[] };
  /** Share of stored screenings whose subject is a listed name or a variant of one. */
  listedShare: number;
  /** Screening ids kept per organization for the run's reads. */
  keepIds: number;
  /** History is spread over this many days before now. */
  days: number;
  seed: number;
  progress?: (done: number) => void;
};

/** Subjects per tenant transaction: large enough that the per-transaction cost disappears, small enough to keep locks short. */
const BATCH = 250;

export async function seedHistory(options: SeedOptions): Promise<Seeded> {
  const started = performance.now();
  const config = loadConfig({ ...options.env, SANDBOX_BOOTSTRAP: 'false', LISTS_AUTO_UPDATE: 'false', WEBHOOK_WORKER: 'false', LOG_LEVEL: 'warn' });
  const db = await openReadyDatabase(config, true);
  const app = await buildApp({ config, db });
  try {
    const snapshot = app.lists.current();
    if (!snapshot) throw new Error('no list is loaded: import the lists before seeding');
    const loadedLists = snapshot.versions.map((v) => v.list);
    const screenings = app.services.screenings;
    const organizations: (SeededOrganization & { keyId: string })[] = (
      await createOrganizations(db, options.organizations, 'Load benchmark', 'bench-load')
    ).map((org) => ({ ...org, screeningIds: [] }));

    let done = 0;
    let potentialMatches = 0;
    const perOrganization = Math.ceil(options.screenings / options.organizations);
    const now = Date.now();
    const seedOrganization = async (org: (typeof organizations)[number], n: number) => {
      // Each organization draws from its own seeded sequence: the same seed, the same history, however the work interleaves.
      const random = seededRandom((options.seed + n) ^ 0x2545f491);
      const pick = (items: string[]) => items[Math.floor(random() * items.length)] as string;
      const quota = Math.max(0, Math.min(perOrganization, options.screenings - n * perOrganization));
      let stored = 0;
      for (let at = 0; at < quota; at += BATCH) {
        const size = Math.min(BATCH, quota - at);
        // Oldest first, so ids (time-ordered) and chain order agree with created_at, as in production.
        const when = new Date(now - options.days * 86_400_000 * (1 - (at + size) / quota));
        const inputs = Array.from({ length: size }, () => {
          const body = JSON.parse(random() < options.listedShare ? pick(options.subjects.listed) : pick(options.subjects.clean));
          return prescreenInput(body, loadedLists, when);
        });
        const context: AuditContext = {
          actor: { organizationId: org.id, kind: 'api_key', id: org.keyId, role: null },
          requestId: `req_seed_${n}_${at}`,
          sourceIp: '127.0.0.1',
        };
        const views = await db.withTenant(context.actor, (trx) => screenings.screenMany(trx, context, inputs, 'prescreen', { now: when }));
        for (const view of views) {
          if (view.record.outcome === 'potential_match') potentialMatches++;
          // Reservoir sampling keeps an even spread of ids over the whole history.
          stored++;
          if (org.screeningIds.length < options.keepIds) org.screeningIds.push(view.record.id);
          else if (random() < options.keepIds / stored) org.screeningIds[Math.floor(random() * options.keepIds)] = view.record.id;
        }
        done += size;
        options.progress?.(done);
      }
    };
    // Two organizations at a time: one screens (this thread) while the other's batch is written (the database's).
    let next = 0;
    const worker = async () => {
      while (next < organizations.length) {
        const n = next++;
        await seedOrganization(organizations[n] as (typeof organizations)[number], n);
      }
    };
    await Promise.all([worker(), worker()]);
    return {
      organizations: organizations.map(({ id, apiKey, screeningIds }) => ({ id, apiKey, screeningIds })),
      screenings: done,
      potentialMatches,
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    await app.close();
    await db.close();
  }
}
