/**
 * The screening pipeline, inside the caller's tenant transaction: match each input under the
 * organization's current rules, mark what earlier false-positive decisions cover, record it
 * (an audit event each, or the one event of the bulk operation that asked), store the records in
 * as few statements as the batch allows, and open (or reopen) a case for each potential match
 * left standing.
 */
import { type AuditContext, recordAudit } from '../../audit/audit.ts';
import { canonicalJson } from '../../canonical-json.ts';
import type { TenantTransaction } from '../../db/tenant.ts';
import { recordEvent } from '../../events/outbox.ts';
import type { ServiceRegistry } from '../../http/services.ts';
import { newId } from '../../ids.ts';
import type { ListSnapshot } from '../../lists/catalog.ts';
import { sha256Hex } from '../../sha256.ts';
import { buildScreening, type ScreeningInput, type ScreeningRecord, type ScreeningSource } from './build-screening.ts';
import { insertScreenings, type StoredScreening } from './store.ts';

/** A stored screening with where its case stands now. */
export type ScreeningView = StoredScreening & { caseStatus: string | null };

export type ScreenOptions = {
  now?: Date;
  /** Screen against these lists instead of every active one (a re-screen against changed entries). */
  snapshot?: ListSnapshot;
  /**
   * A bulk operation (a workforce sync, a monitoring run) records its screenings under its own
   * audit event instead of one each, and announces itself instead of each screening.
   */
  recordedBy?: { auditHash: string };
  /** For input i, the subject's case to reopen rather than a new one to open (a re-screen of a decided subject). */
  reopen?: (index: number) => string | undefined;
  /** Store only what found something: a re-screen of thousands of subjects keeps no row for each clear one (its run counts them). */
  onlyPotentialMatches?: boolean;
};

type Registry = Pick<ServiceRegistry, 'get'>;

export async function screenMany(
  trx: TenantTransaction,
  context: AuditContext,
  registry: Registry,
  snapshot: ListSnapshot,
  inputs: ScreeningInput[],
  source: ScreeningSource,
  options: ScreenOptions = {},
): Promise<ScreeningView[]> {
  const adjudication = registry.get('adjudication');
  const now = options.now ?? new Date();
  const organizationId = context.actor.organizationId;
  const { version, rules } = await adjudication.currentRules(trx);
  const thresholds = { ...rules.thresholds, rules_version: version };
  const actor = { kind: context.actor.kind, id: context.actor.id };

  const records: ScreeningRecord[] = [];
  for (const input of inputs) {
    const built = buildScreening(snapshot, input, { source, requestId: context.requestId ?? 'none', actor, now, thresholds });
    records.push(built.matches.length > 0 ? await adjudication.applySuppressions(trx, built, rules, now) : built);
  }

  const stored: StoredScreening[] = [];
  for (const [i, record] of records.entries()) {
    const alerting = record.matches.some((m) => m.suppressed_by === null);
    const caseId = alerting ? (options.reopen?.(i) ?? newId('case', now.getTime())) : null;
    const auditHash =
      options.recordedBy?.auditHash ??
      (
        await recordAudit(trx, context, {
          action: 'screening.created',
          target: { type: 'screening', id: record.id },
          // Outcome and counts only: the names screened are personal data and stay in the screening row.
          details: { source, outcome: record.outcome, matches: record.matches.length, case_id: caseId, list_versions: record.list_versions.map((v) => v.version_id) },
        })
      ).hash;
    stored.push({ record, recordSha256: sha256Hex(canonicalJson(record)), auditHash, caseId });
  }
  await insertScreenings(trx, organizationId, options.onlyPotentialMatches ? stored.filter((s) => s.record.outcome === 'potential_match') : stored);

  const views: ScreeningView[] = [];
  for (const [i, { record, caseId }] of stored.entries()) {
    let caseStatus: string | null = null;
    if (caseId) {
      const toOpen = { caseId, screening: record, rulesVersion: version, rules, now };
      caseStatus = options.reopen?.(i) ? await adjudication.reopenCase(trx, context, toOpen) : await adjudication.openCase(trx, context, toOpen);
    }
    if (!options.recordedBy && !(options.onlyPotentialMatches && record.outcome === 'clear')) {
      await recordEvent(trx, organizationId, {
        type: 'screening.completed',
        data: { screening_id: record.id, source, outcome: record.outcome, score: record.score, matches: record.matches.length, case_id: caseId, reference: record.reference },
        ...(context.requestId && { requestId: context.requestId }),
      });
    }
    views.push({ ...(stored[i] as StoredScreening), caseStatus });
  }
  return views;
}
