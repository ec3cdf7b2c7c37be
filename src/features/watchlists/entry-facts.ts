/**
 * An entry's SHA-256: of its facts as canonical JSON (src/canonical-json.ts), so equal facts
 * always hash alike whatever the order they were sent in, and a bulk import tells an unchanged
 * entry from a changed one by the hash alone. The caller's `external_id` is a key, not a fact,
 * and who changed the entry and when are history: neither is hashed. Pure.
 */
import { canonicalJson } from '../../canonical-json.ts';
import { sha256Hex } from '../../sha256.ts';
import type { EntryFacts } from './model.ts';

export function entryFactsSha256(facts: EntryFacts): string {
  return sha256Hex(
    canonicalJson({
      type: facts.type,
      names: facts.names,
      dates_of_birth: facts.datesOfBirth,
      countries: facts.countries,
      identifiers: facts.identifiers,
      reason: facts.reason,
      severity: facts.severity,
      expires_at: facts.expiresAt?.toISOString() ?? null,
    }),
  );
}
